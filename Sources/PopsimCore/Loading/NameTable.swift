/// Names to ids, looked up by their UTF-8 bytes: no String is built and no SipHash runs, which
/// matters when a million events each name a popup. Never iterated, so it cannot affect output.
///
/// The names are kept end to end in one byte array (no allocation per name); a name is in the
/// table once (`insert` of a name already there keeps the first id and returns it).
struct NameTable: Sendable {
    private var bytes: [UInt8] = []
    /// Where each name ends in `bytes` (it starts where the one before ends).
    private var ends: [Int] = []
    private var ids: [Int32] = []
    /// Open addressing: an index into `ends`, or -1.
    private var slots = [Int32](repeating: -1, count: 16)

    var count: Int { ends.count }

    /// Room for `count` names of `bytes` bytes in all without growing.
    mutating func reserve(_ count: Int, bytes total: Int) {
        bytes.reserveCapacity(total)
        ends.reserveCapacity(count)
        ids.reserveCapacity(count)
        var size = slots.count
        while size < count * 2 { size *= 2 }
        if size > slots.count { rehash(size) }
    }

    /// Adds `name` with `id`, unless it is there: then returns the id it has.
    @discardableResult
    mutating func insert(_ name: String, id: Int32) -> Int32? {
        var name = name
        return name.withUTF8 { insert($0, id: id) }
    }

    @discardableResult
    mutating func insert(_ name: UnsafeBufferPointer<UInt8>, id: Int32) -> Int32? {
        if (ends.count + 1) * 2 > slots.count { rehash(slots.count * 2) }
        let mask = slots.count - 1
        var i = Self.hash(name) & mask
        while slots[i] >= 0 {
            let slot = Int(slots[i])
            if same(slot, name) { return ids[slot] }
            i = (i + 1) & mask
        }
        bytes.append(contentsOf: name)
        ends.append(bytes.count)
        ids.append(id)
        slots[i] = Int32(ends.count - 1)
        return nil
    }

    func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Int32? {
        let mask = slots.count - 1
        var i = Self.hash(name) & mask
        while true {
            let slot = slots[i]
            if slot < 0 { return nil }
            if same(Int(slot), name) { return ids[Int(slot)] }
            i = (i + 1) & mask
        }
    }

    func lookup(_ name: String) -> Int32? {
        var name = name
        return name.withUTF8 { lookup($0) }
    }

    private func same(_ slot: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = slot == 0 ? 0 : ends[slot - 1]
        guard ends[slot] - start == name.count else { return false }
        for k in 0..<name.count where bytes[start + k] != name[k] { return false }
        return true
    }

    private mutating func rehash(_ size: Int) {
        slots = [Int32](repeating: -1, count: size)
        let mask = size - 1
        bytes.withUnsafeBufferPointer { all in
            for slot in ends.indices {
                let start = slot == 0 ? 0 : ends[slot - 1]
                var i = Self.hash(UnsafeBufferPointer(rebasing: all[start..<ends[slot]])) & mask
                while slots[i] >= 0 { i = (i + 1) & mask }
                slots[i] = Int32(slot)
            }
        }
    }

    /// Byte equality of two names of the same length.
    static func equal(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        for k in 0..<bytes.count where name[k] != bytes[k] { return false }
        return true
    }

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: h >> 1)
    }
}
