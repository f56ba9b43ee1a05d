/// Arrays a run keeps from run to run and step to step: refilled and emptied in their own storage.
extension Array {
    /// `count` copies of `value`, in the storage it has when it has that many.
    mutating func refill(_ value: Element, count: Int) {
        if self.count == count {
            // Through one buffer: one uniqueness check, not one per element.
            withUnsafeMutableBufferPointer { all in
                for i in all.indices { all[i] = value }
            }
        } else {
            self = Array(repeating: value, count: count)
        }
    }

    /// Empties it, keeping its storage, as `removeAll(keepingCapacity: true)` does. That one
    /// goes through the generic `replaceSubrange` whatever the count, about 85 instructions even
    /// when empty; the engine's and strategies' short lists are emptied at almost every step
    /// (callgrind: 3 % of a replay), so up to four elements are taken off the end instead.
    @inline(__always)
    mutating func empty() {
        switch count {
        case 0: return
        case 1...4: while !isEmpty { removeLast() }
        default: removeAll(keepingCapacity: true)
        }
    }
}
