/// The users a gatherer holds: found by the FNV-1a 64 hash of their bytes, then the bytes; each
/// with its first row, its last time, how many rows it has held (`HeldRow`) and whether it is left
/// out or done.
///
/// Contract: users are numbered in the order they first come (so by first row); memory is about
/// 64 bytes a user in pages, 16 in the hash slots, and the id's bytes when they are more than
/// `inlineBytes`.
///
/// An id of up to 16 bytes (most are) sits in its entry: finding a user costs two cache misses
/// (slot, entry), not three (slot, entry, id bytes); 7.97 % of a `--jobs 1` replay was here. A
/// gatherer that knows the users of its next rows asks for both ahead (`prefetchSlot`,
/// `prefetchEntry`): 9.2 % of a `--jobs 2` replay fell to 3.5 %.
final class UserTable {
    struct Entry: BitwiseCopyable {
        var hash: UInt64
        /// The id's bytes when there are at most `inlineBytes` of them (zeros after).
        var inline: (UInt64, UInt64)
        var firstRow: Int
        /// The time of the last row taken (rows earlier than it are errors).
        var lastTime: Int
        var page: Int32
        var offset: Int32
        var idCount: Int32
        /// How many rows it has held (`HeldRow`s naming it).
        var rows: UInt32
        /// A bad row of it was found: it is left out (counted once).
        var bad: Bool
        /// Another user's row came after its rows: done, if the trace is grouped by user.
        var finished: Bool
    }

    /// The longest id kept in its entry.
    static let inlineBytes = 16

    let entries = Paged<Entry>()
    private let ids = ByteArena()
    /// Open addressing: 0 (empty), or the hash's high 32 bits over the entry's index plus one.
    /// Behind a constant pointer (no exclusivity check on the hot path).
    private let table: UnsafeMutablePointer<(slots: UnsafeMutablePointer<UInt64>, mask: Int)>

    init() {
        table = .allocate(capacity: 1)
        table.initialize(to: Self.emptySlots(64))
    }

    deinit {
        table.pointee.slots.deallocate()
        table.deallocate()
    }

    private static func emptySlots(_ n: Int) -> (slots: UnsafeMutablePointer<UInt64>, mask: Int) {
        let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: n)
        slots.initialize(repeating: 0, count: n)
        return (slots, n - 1)
    }

    var count: Int { entries.count }

    /// Bytes held: entries, slots, ids.
    var byteCount: Int { entries.byteCount + (table.pointee.mask + 1) * 8 + ids.byteCount }

    subscript(_ i: Int) -> Entry {
        @inline(__always) get { entries[i] }
        @inline(__always) set { entries[i] = newValue }
    }

    /// A pointer to user `i`'s entry, valid until the next insert.
    @inline(__always)
    func entry(_ i: Int) -> UnsafeMutablePointer<Entry> { entries.pointer(i) }

    @inline(__always)
    func id(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let e = entries.pointer(i)
        let count = Int(e.pointee.idCount)
        if count <= Self.inlineBytes {
            return UnsafeBufferPointer(start: (UnsafeRawPointer(e) + inlineOffset).assumingMemoryBound(to: UInt8.self), count: count)
        }
        return ids.bytes(page: e.pointee.page, offset: e.pointee.offset, count: e.pointee.idCount)
    }

    func idString(_ i: Int) -> String { String(decoding: id(i), as: UTF8.self) }

    /// The index of the user with these bytes (and `hash`), if held.
    @inline(__always)
    func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        let (slots, mask) = table.pointee
        var i = Int(truncatingIfNeeded: hash) & mask
        let tag = hash >> 32
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if s >> 32 == tag {
                let k = Int(s & 0xFFFF_FFFF) - 1
                if Self.equal(id(k), bytes) { return k }
            }
            i = (i + 1) & mask
        }
    }

    /// Asks the cache for the slot where finding the user of `hash` starts (`CacheHint`).
    @inline(__always)
    func prefetchSlot(_ hash: UInt64) {
        let (slots, mask) = table.pointee
        CacheHint.willRead(slots + (Int(truncatingIfNeeded: hash) & mask))
    }

    /// Asks the cache for the entry of the user `hash` most likely names: the one in the slot
    /// where finding it starts, when that slot's tag agrees (its slot asked for before).
    @inline(__always)
    func prefetchEntry(_ hash: UInt64) {
        let (slots, mask) = table.pointee
        let s = slots[Int(truncatingIfNeeded: hash) & mask]
        guard s != 0, s >> 32 == hash >> 32 else { return }
        CacheHint.willRead(entries.pointer(Int(s & 0xFFFF_FFFF) - 1))
    }

    /// Adds a user known not to be held; returns its index.
    func insert(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, firstRow: Int, time: Int) -> Int {
        if (entries.count + 1) * 2 > table.pointee.mask + 1 { rehash((table.pointee.mask + 1) * 2) }
        var inline: (UInt64, UInt64) = (0, 0)
        var page: Int32 = 0, offset: Int32 = 0
        if bytes.count <= Self.inlineBytes {
            withUnsafeMutableBytes(of: &inline) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        } else {
            (page, offset) = ids.store(bytes)
        }
        let index = entries.append(Entry(hash: hash, inline: inline, firstRow: firstRow, lastTime: time, page: page, offset: offset,
                                         idCount: Int32(clamping: bytes.count), rows: 0, bad: false, finished: false))
        place(hash, index)
        return index
    }

    /// Where an entry's inline id starts (held here, not in a global read through a lazy start).
    private let inlineOffset = MemoryLayout<Entry>.offset(of: \Entry.inline) ?? 8

    /// Empties it and gives the memory back.
    func removeAll() {
        entries.removeAll()
        ids.removeAll()
        table.pointee.slots.deallocate()
        table.pointee = Self.emptySlots(64)
    }

    private func place(_ hash: UInt64, _ index: Int) {
        let (slots, mask) = table.pointee
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = (hash >> 32) << 32 | UInt64(index + 1)
    }

    private func rehash(_ size: Int) {
        table.pointee.slots.deallocate()
        table.pointee = Self.emptySlots(size)
        for k in 0..<entries.count { place(entries[k].hash, k) }
    }

    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == 0 }
        return RawBytes.equal(x, y, count: a.count)
    }

    /// FNV-1a 64 of a user's bytes: what shards, workers and partitions are chosen by (shards by
    /// its low digits, partitions by its high ones, workers by the middle).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
