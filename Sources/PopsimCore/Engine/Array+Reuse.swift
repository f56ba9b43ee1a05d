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

    /// At least `count` elements, the first `count` of them `value` (the rest as they were):
    /// for a buffer read only below a count that changes from use to use (a timeline's per-line
    /// flags, for every user of a replay), which `refill` made anew, an allocation each time.
    mutating func refill(_ value: Element, first count: Int) {
        if self.count < count { self = Array(repeating: value, count: Swift.max(count, 2 * self.count)) }
        withUnsafeMutableBufferPointer { all in
            for i in 0..<Swift.min(count, all.count) { all[i] = value }
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
