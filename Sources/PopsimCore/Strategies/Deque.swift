/// A double-ended queue with amortized O(1) push and pop at both ends, so a waiting line that
/// grows by a burst of arrivals and drains one by one stays linear.
///
/// Two arrays: `front` holds the first elements reversed (pushed at the front), `back` the rest
/// from `backHead` on. Insertion and removal in the middle move only the elements on one side, in
/// place (notistack takes a snack from the middle whenever the head waits for its own copy to go).
/// `elements` lists the contents in order.
struct Deque<Element>: Sendable where Element: Sendable {
    private var front: [Element] = []
    private var back: [Element] = []
    private var backHead = 0

    init() {}

    var count: Int { front.count + back.count - backHead }
    var isEmpty: Bool { count == 0 }
    var first: Element? { front.last ?? (backHead < back.count ? back[backHead] : nil) }
    var elements: [Element] { front.reversed() + back[backHead...] }

    subscript(i: Int) -> Element {
        i < front.count ? front[front.count - 1 - i] : back[backHead + i - front.count]
    }

    mutating func append(_ e: Element) { back.append(e) }

    mutating func prepend(_ e: Element) { front.append(e) }

    mutating func popFirst() -> Element? {
        if let e = front.popLast() { return e }
        guard backHead < back.count else { return nil }
        let e = back[backHead]
        backHead += 1
        if backHead > 64 && backHead * 2 > back.count {
            back.removeFirst(backHead)
            backHead = 0
        }
        return e
    }

    /// Inserts at position `i` (0 ... count), in place: O(i) in the front part, O(count − i) in
    /// the back part (O(1) at either end).
    mutating func insert(_ e: Element, at i: Int) {
        if i <= front.count {
            front.insert(e, at: front.count - i)
        } else {
            back.insert(e, at: backHead + i - front.count)
        }
    }

    /// Removes the element at position `i`, in place: O(1) at the front, else it moves only the
    /// elements on its side (no rebuilding of the whole line).
    @discardableResult
    mutating func remove(at i: Int) -> Element {
        if i == 0, let e = popFirst() { return e }
        if i < front.count { return front.remove(at: front.count - 1 - i) }
        return back.remove(at: backHead + i - front.count)
    }

    /// Removes every element `matches` accepts, keeping the order of the rest, and returns them
    /// in order: O(n), one call of `matches` per element (notistack's `remove` of a popup's snacks).
    mutating func remove(where matches: (Element) -> Bool) -> [Element] {
        // `front` is in reverse order: its removed ones come out reversed, before `back`'s.
        var removed = Self.compact(&front, from: 0, removing: matches)
        removed.reverse()
        removed += Self.compact(&back, from: backHead, removing: matches)
        return removed
    }

    /// Takes out of `array[start...]` the elements `matches` accepts, in place, keeping the order
    /// of the rest; returns them in array order.
    private static func compact(_ array: inout [Element], from start: Int, removing matches: (Element) -> Bool) -> [Element] {
        var removed: [Element] = []
        var kept = start
        for i in start..<array.count {
            let e = array[i]
            if matches(e) {
                removed.append(e)
            } else {
                array[kept] = e
                kept += 1
            }
        }
        array.removeSubrange(kept...)
        return removed
    }

    /// Removes every element `matches` accepts, keeping the order of the rest: O(n), in place
    /// (no copy of the line).
    mutating func removeAll(where matches: (Element) -> Bool) {
        front.removeAll(where: matches)
        if backHead > 0 {
            back.removeSubrange(0..<backHead)
            backHead = 0
        }
        back.removeAll(where: matches)
    }

    /// Empty, keeping its storage (a band of a list emptied and filled again).
    mutating func removeAll() {
        front.empty()
        back.empty()
        backHead = 0
    }

    func firstIndex(where matches: (Element) -> Bool) -> Int? {
        var i = 0
        while i < count {
            if matches(self[i]) { return i }
            i += 1
        }
        return nil
    }

    private mutating func replaceAll(with all: [Element]) {
        front = []
        back = all
        backHead = 0
    }
}

extension Deque where Element: Equatable {
    func firstIndex(of e: Element) -> Int? { firstIndex { $0 == e } }
}
