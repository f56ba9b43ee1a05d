/// A binary min-heap of keyed items.
///
/// Contract: `pop` returns the item with the smallest key. Keys must be distinct for a defined
/// order (`HappeningKey` guarantees it); the heap itself says nothing about equal keys.
/// - Complexity: O(log n) `push` and `pop`, O(1) `peek`.
struct Heap<Key: Comparable, Item> {
    private struct Node {
        var key: Key
        var item: Item
    }

    private var nodes: [Node] = []

    var minKey: Key? { nodes.first?.key }

    /// Empty, keeping its storage.
    mutating func removeAll() { nodes.empty() }

    mutating func push(_ key: Key, _ item: Item) {
        nodes.append(Node(key: key, item: item))
        // Through the buffer: an array's every write checked its uniqueness (~150 instructions
        // a push and a pop under fg's replay, for heaps of a few happenings).
        nodes.withUnsafeMutableBufferPointer { nodes in
            var child = nodes.count - 1
            let node = nodes[child]
            while child > 0 {
                let parent = (child - 1) / 2
                guard node.key < nodes[parent].key else { break }
                nodes[child] = nodes[parent]
                child = parent
            }
            nodes[child] = node
        }
    }

    mutating func pop() -> (Key, Item)? {
        guard let top = nodes.first else { return nil }
        let last = nodes.removeLast()
        guard !nodes.isEmpty else { return (top.key, top.item) }
        nodes.withUnsafeMutableBufferPointer { nodes in
            var parent = 0
            let count = nodes.count
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                let right = left + 1
                let child = right < count && nodes[right].key < nodes[left].key ? right : left
                guard nodes[child].key < last.key else { break }
                nodes[parent] = nodes[child]
                parent = child
            }
            nodes[parent] = last
        }
        return (top.key, top.item)
    }
}
