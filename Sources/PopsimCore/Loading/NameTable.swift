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
    /// Open addressing: 0 (empty), or the name's hash in the high 32 bits and its index into
    /// `ends` plus one in the low: a probe past another name compares no bytes (on a million
    /// names, each byte comparison was a cache miss).
    private var slots = [UInt64](repeating: 0, count: 16)

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
        let h = Self.hash(name)
        var i = h & mask
        while slots[i] != 0 {
            if let slot = Self.candidate(slots[i], h), same(slot, name) { return ids[slot] }
            i = (i + 1) & mask
        }
        bytes.append(contentsOf: name)
        ends.append(bytes.count)
        ids.append(id)
        slots[i] = Self.slot(h, ends.count - 1)
        return nil
    }

    func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Int32? {
        let mask = slots.count - 1
        let h = Self.hash(name)
        var i = h & mask
        while slots[i] != 0 {
            if let slot = Self.candidate(slots[i], h), same(slot, name) { return ids[slot] }
            i = (i + 1) & mask
        }
        return nil
    }

    func lookup(_ name: String) -> Int32? {
        var name = name
        return name.withUTF8 { lookup($0) }
    }

    /// Where name `index` lies in `bytes`.
    private func span(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

    /// Hot: every event's popup name is looked up here (kept free of `Range` arithmetic).
    private func same(_ slot: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = slot == 0 ? 0 : ends[slot - 1]
        guard ends[slot] - start == name.count else { return false }
        guard name.count > 0, let other = name.baseAddress else { return true }
        return bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return false }
            return RawBytes.equal(base + start, other, count: name.count)
        }
    }

    private mutating func rehash(_ size: Int) {
        slots = [UInt64](repeating: 0, count: size)
        let mask = size - 1
        bytes.withUnsafeBufferPointer { all in
            for slot in ends.indices {
                let h = Self.hash(UnsafeBufferPointer(rebasing: all[span(slot)]))
                var i = h & mask
                while slots[i] != 0 { i = (i + 1) & mask }
                slots[i] = Self.slot(h, slot)
            }
        }
    }

    /// A slot's word: `hash`'s high 32 bits over the index plus one.
    private static func slot(_ hash: Int, _ index: Int) -> UInt64 {
        (UInt64(truncatingIfNeeded: hash) & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
    }

    /// The index a non-empty slot holds, if its hash bits are `hash`'s.
    private static func candidate(_ word: UInt64, _ hash: Int) -> Int? {
        word >> 32 == UInt64(truncatingIfNeeded: hash) >> 32 ? Int(word & 0xFFFF_FFFF) - 1 : nil
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

extension NameTable {
    /// A table of `names` (each mapped to its index) and the indices of the repeats, ascending:
    /// what inserting them in order gives, built in the order of the slots they land in rather
    /// than of the names. Why: a million names inserted in file order each missed the cache at a
    /// random slot (11 % of loading a million popups); sorted by slot, the writes go forward.
    static func firstOccurrences(_ names: some Collection<String>) -> (table: NameTable, repeats: [Int]) {
        var table = NameTable()
        table.reserve(names.count, bytes: names.reduce(0) { $0 + $1.utf8.count })
        var hashes = [Int](repeating: 0, count: names.count)
        for (i, name) in names.enumerated() {
            var name = name
            name.withUTF8 { bytes in
                hashes[i] = hash(bytes)
                table.bytes.append(contentsOf: bytes)
            }
            table.ends.append(table.bytes.count)
            table.ids.append(Int32(clamping: i))
        }
        let mask = table.slots.count - 1
        var repeats: [Int] = []
        for i32 in sortedBySlot(hashes, mask: mask) {
            let i = Int(i32), h = hashes[i]
            var s = h & mask
            var repeated = false
            while table.slots[s] != 0 {
                if let other = candidate(table.slots[s], h), table.sameNames(other, i) { repeated = true; break }
                s = (s + 1) & mask
            }
            if repeated { repeats.append(i) } else { table.slots[s] = slot(h, i) }
        }
        repeats.sort()
        if !repeats.isEmpty { table.dropNames(repeats) }
        return (table, repeats)
    }

    /// The indices 0..<hashes.count, stably sorted by home slot (`hash & mask`): a radix sort
    /// of 11 bits a pass, so a run of equal names keeps its first one first.
    private static func sortedBySlot(_ hashes: [Int], mask: Int) -> [Int32] {
        var order = (0..<Int32(clamping: hashes.count)).map { $0 }, other = order
        let bits = mask.nonzeroBitCount
        var shift = 0
        while shift < bits {
            var counts = [Int](repeating: 0, count: 2049)
            for i in order { counts[((hashes[Int(i)] & mask) >> shift) & 2047 + 1] += 1 }
            for d in 1..<counts.count { counts[d] += counts[d - 1] }
            for i in order {
                let d = ((hashes[Int(i)] & mask) >> shift) & 2047
                other[counts[d]] = i
                counts[d] += 1
            }
            swap(&order, &other)
            shift += 11
        }
        return order
    }

    private func sameNames(_ a: Int, _ b: Int) -> Bool {
        bytes.withUnsafeBufferPointer { same(a, UnsafeBufferPointer(rebasing: $0[span(b)])) }
    }

    /// Removes the names at `repeats` (ascending; no slot holds them), moving the rest down.
    private mutating func dropNames(_ repeats: [Int]) {
        var newIndex = [Int](repeating: -1, count: ends.count)
        var keptBytes: [UInt8] = [], keptEnds: [Int] = [], keptIDs: [Int32] = []
        var r = 0
        for i in ends.indices {
            if r < repeats.count, repeats[r] == i { r += 1; continue }
            keptBytes.append(contentsOf: bytes[span(i)])
            keptEnds.append(keptBytes.count)
            keptIDs.append(ids[i])
            newIndex[i] = keptEnds.count - 1
        }
        (bytes, ends, ids) = (keptBytes, keptEnds, keptIDs)
        for s in slots.indices where slots[s] != 0 {
            slots[s] = slots[s] & 0xFFFF_FFFF_0000_0000 | UInt64(newIndex[Int(slots[s] & 0xFFFF_FFFF) - 1] + 1)
        }
    }
}
