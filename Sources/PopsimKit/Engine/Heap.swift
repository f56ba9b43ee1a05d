/// A binary min-heap of keyed items.
///
/// Contract: `pop` returns the item with the smallest key. Keys must be distinct for a defined
/// order (`HappeningKey` guarantees it); the heap itself says nothing about equal keys.
/// - Complexity: O(log n) `push` and `pop`, O(1) `peek`.
struct Heap<Key: Comparable, Item> {
    private var keys: [Key] = []
    private var items: [Item] = []

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }
    var minKey: Key? { keys.first }

    mutating func push(_ key: Key, _ item: Item) {
        keys.append(key)
        items.append(item)
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard keys[child] < keys[parent] else { break }
            keys.swapAt(child, parent)
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Key, Item)? {
        guard !keys.isEmpty else { return nil }
        let top = (keys[0], items[0])
        let last = keys.count - 1
        keys.swapAt(0, last)
        items.swapAt(0, last)
        keys.removeLast()
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < keys.count else { break }
            let right = left + 1
            let child = right < keys.count && keys[right] < keys[left] ? right : left
            guard keys[child] < keys[parent] else { break }
            keys.swapAt(child, parent)
            items.swapAt(child, parent)
            parent = child
        }
        return top
    }
}
