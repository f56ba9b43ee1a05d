/// Popups in the order they were added, each at most once, with O(log n) removal of any popup
/// and O(log n) access to the k-th newest.
///
/// Why: sonner's mounted toasts are an array it searches and splices, O(n) per arrival and per
/// expiry, so a burst of a million toasts (a million expiring together later) was quadratic.
/// Here removal leaves a tombstone and a Fenwick tree counts the live entries, so "the k-th newest"
/// is a descent of the tree; tombstones are compacted away once they outnumber the live entries.
struct OrderedPopupSet: Sendable {
    private var items: [PopupID] = []
    private var alive: [Bool] = []
    /// Fenwick tree over `alive` (1-based; `tree.count - 1` is the capacity).
    private var tree: [Int] = [0]
    /// Each popup's position in `items`, or -1 when absent.
    private var position: [Int]
    private(set) var count = 0

    init(popups: Int) { position = Array(repeating: -1, count: popups) }

    /// Room for a new instance (`Strategy.instanceAdded`).
    mutating func addInstance() { position.append(-1) }

    func contains(_ p: PopupID) -> Bool { position[Int(p.index)] >= 0 }

    /// Adds `p` as the newest (nothing if it is already in).
    mutating func append(_ p: PopupID) {
        guard !contains(p) else { return }
        if items.count + 1 >= tree.count { rebuild(capacity: max(16, 2 * (count + 1))) }
        position[Int(p.index)] = items.count
        items.append(p)
        alive.append(true)
        adjust(at: items.count - 1, by: 1)
        count += 1
    }

    mutating func remove(_ p: PopupID) {
        let i = position[Int(p.index)]
        guard i >= 0 else { return }
        position[Int(p.index)] = -1
        alive[i] = false
        adjust(at: i, by: -1)
        count -= 1
        let dead = items.count - count
        if dead > 64 && dead > count { rebuild(capacity: max(16, 2 * (count + 1))) }
    }

    /// The k-th newest popup (1 is the newest), if there are k.
    func newest(_ k: Int) -> PopupID? {
        guard k >= 1 && k <= count else { return nil }
        return items[offset(ofLive: count - k + 1)]
    }

    /// The `n` newest popups, oldest of them first.
    func suffix(_ n: Int) -> [PopupID] {
        let n = min(n, count)
        return stride(from: n, through: 1, by: -1).compactMap { newest($0) }
    }

    /// Every popup, oldest first.
    var elements: [PopupID] { items.indices.filter { alive[$0] }.map { items[$0] } }

    // MARK: - Fenwick tree

    private mutating func adjust(at i: Int, by delta: Int) {
        var j = i + 1
        while j < tree.count {
            tree[j] += delta
            j += j & -j
        }
    }

    /// The offset in `items` of the k-th live entry (1-based k).
    private func offset(ofLive k: Int) -> Int {
        var pos = 0
        var remaining = k
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = pos + step
            if next < tree.count && tree[next] < remaining {
                pos = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return pos
    }

    /// Drops the tombstones and rebuilds the tree with room for `capacity` entries: O(n).
    private mutating func rebuild(capacity: Int) {
        let live = elements
        items = live
        alive = Array(repeating: true, count: live.count)
        for (i, p) in live.enumerated() { position[Int(p.index)] = i }
        let size = max(capacity, live.count + 1)
        tree = Array(repeating: 0, count: size + 1)
        for j in 1...size {
            if j <= live.count { tree[j] += 1 }
            let parent = j + (j & -j)
            if parent <= size { tree[parent] += tree[j] }
        }
    }
}
