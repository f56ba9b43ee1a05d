/// Names to ids, looked up by their UTF-8 bytes: no String is built and no SipHash runs, which
/// matters when a million events each name a popup. Never iterated, so it cannot affect output.
struct NameTable: Sendable {
    private var names: [[UInt8]] = []
    private var ids: [Int32] = []
    /// Open addressing: an index into `names`, or -1.
    private var slots = [Int32](repeating: -1, count: 16)

    mutating func insert(_ name: String, id: Int32) {
        if (names.count + 1) * 2 > slots.count { grow() }
        names.append(Array(name.utf8))
        ids.append(id)
        place(Int32(names.count - 1))
    }

    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let mask = slots.count - 1
        var i = Self.hash(bytes) & mask
        while true {
            let slot = slots[i]
            if slot < 0 { return nil }
            if Self.same(names[Int(slot)], bytes) { return ids[Int(slot)] }
            i = (i + 1) & mask
        }
    }

    private mutating func place(_ index: Int32) {
        let mask = slots.count - 1
        var i = names[Int(index)].withUnsafeBufferPointer { Self.hash($0) } & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = index
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for i in names.indices { place(Int32(i)) }
    }

    static func same(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        for i in 0..<bytes.count where name[i] != bytes[i] { return false }
        return true
    }

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: h >> 1)
    }
}
