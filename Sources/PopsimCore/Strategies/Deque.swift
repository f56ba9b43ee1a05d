/// A double-ended queue with amortized O(1) push and pop at both ends, so a waiting line that
/// grows by a burst of arrivals and drains one by one stays linear.
///
/// Two arrays: `front` holds the first elements reversed (pushed at the front), `back` the rest
/// from `backHead` on. Insertion and removal in the middle are O(n) (they are rare: a bump, a
/// removal by the app). `elements` lists the contents in order.
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

    /// Inserts at position `i` (0 ... count): O(i) near the front, O(1) at the back, else O(n).
    mutating func insert(_ e: Element, at i: Int) {
        if i == count { return append(e) }
        if i <= 8 {
            var taken: [Element] = []
            while taken.count < i, let x = popFirst() { taken.append(x) }
            prepend(e)
            for x in taken.reversed() { prepend(x) }
            return
        }
        var all = elements
        all.insert(e, at: i)
        replaceAll(with: all)
    }

    /// Removes the element at position `i`: O(n) unless at the front.
    @discardableResult
    mutating func remove(at i: Int) -> Element {
        if i == 0, let e = popFirst() { return e }
        var all = elements
        let e = all.remove(at: i)
        replaceAll(with: all)
        return e
    }

    /// Removes every element `matches` accepts, keeping the order of the rest: O(n).
    mutating func removeAll(where matches: (Element) -> Bool) {
        replaceAll(with: elements.filter { !matches($0) })
    }

    mutating func removeAll() { replaceAll(with: []) }

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
