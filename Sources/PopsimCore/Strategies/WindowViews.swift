/// The views in SwiftEntryKit's window, oldest first, any of which may leave: a view appended,
/// a popup's oldest view removed, the newest view, whether a popup has a view — each amortized
/// O(1). An array's `firstIndex(of:)` and `remove(at:)` (and `contains`) made a burst of 400,000
/// entries quadratic (issue 66): 74 % of the run moved memory.
///
/// Views are kept in order with the gone ones marked and trimmed from either end; each popup
/// keeps the positions of its views, oldest first. Positions are absolute (`offset` is the
/// position of `order`'s first slot), so trimming the front never rewrites them.
struct WindowViews: Sendable {
    private var order: [PopupID] = []
    private var left: [Bool] = []
    private var head = 0
    private var offset = 0
    private var live = 0
    /// Per popup (by index), the positions of its views in the window, oldest first.
    private var positions: [Deque<Int>] = []

    var isEmpty: Bool { live == 0 }

    /// The newest view in the window.
    var last: PopupID? { live > 0 ? order.last : nil }

    /// Whether popup `p` has a view in the window.
    func contains(_ p: PopupID) -> Bool {
        Int(p.index) < positions.count && !positions[Int(p.index)].isEmpty
    }

    mutating func append(_ p: PopupID) {
        let i = Int(p.index)
        if i >= positions.count { positions += Array(repeating: Deque(), count: i + 1 - positions.count) }
        positions[i].append(offset + order.count)
        order.append(p)
        left.append(false)
        live += 1
    }

    /// `p`'s oldest view leaves the window (nothing when it has none).
    mutating func remove(_ p: PopupID) {
        let i = Int(p.index)
        guard i < positions.count, let at = positions[i].popFirst() else { return }
        left[at - offset] = true
        live -= 1
        while head < order.count, left[head] { head += 1 }
        while let l = left.last, l {
            order.removeLast()
            left.removeLast()
        }
        if head >= order.count {
            offset += order.count
            order.removeAll(keepingCapacity: true)
            left.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > order.count {
            order.removeFirst(head)
            left.removeFirst(head)
            offset += head
            head = 0
        }
    }
}
