/// A set of 64-bit hashes by open addressing (0 stands for itself in a flag of its own): 8 bytes a
/// slot, at most half full; what a gatherer keeps of the users it let go.
struct HashSet: Sendable {
    private var slots: [UInt64] = []
    private var hasZero = false
    private(set) var count = 0

    var byteCount: Int { slots.count * 8 }

    func contains(_ h: UInt64) -> Bool {
        if h == 0 { return hasZero }
        guard !slots.isEmpty else { return false }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h >> 7) & mask
        while slots[i] != 0 {
            if slots[i] == h { return true }
            i = (i + 1) & mask
        }
        return false
    }

    mutating func insert(_ h: UInt64) {
        if h == 0 {
            if !hasZero { count += 1 }
            hasZero = true
            return
        }
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h >> 7) & mask
        while slots[i] != 0 {
            if slots[i] == h { return }
            i = (i + 1) & mask
        }
        slots[i] = h
        count += 1
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: max(64, old.count * 2))
        let mask = slots.count - 1
        for h in old where h != 0 {
            var i = Int(truncatingIfNeeded: h >> 7) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = h
        }
    }
}
