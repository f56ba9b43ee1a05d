/// A FIFO of popups with O(1) amortized append and pop.
///
/// Strategies use it for their waiting lines; `elements` lists what is left in order.
struct PopupQueue: Sendable {
    private var storage: [PopupID] = []
    private var head = 0

    var elements: [PopupID] { Array(storage[head...]) }

    mutating func append(_ p: PopupID) { storage.append(p) }

    mutating func popFirst() -> PopupID? {
        guard head < storage.count else { return nil }
        let p = storage[head]
        head += 1
        if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return p
    }
}
