/// The chunks a line-based reader is fed, and the record a chunk's end cut: what CSV and JSON
/// Lines share. A record that lies whole in a chunk is handed out where it is; one that a chunk's
/// end cuts is carried in the reader's storage until its line break comes (or the trace ends).
struct RecordChunks {
    private(set) var chunk = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The next byte of `chunk` to read.
    private(set) var at = 0
    /// Whether `storage.record` holds the start of a record.
    private(set) var carrying = false
    private(set) var finished = false
    let storage: TraceRowStorage
    /// The trace's first bytes, looked at for a compressed file's (`compressed`).
    private var magic = TraceCompression.Sniffer()

    init(storage: TraceRowStorage) { self.storage = storage }

    /// Chunks for a reader that resumes further on in the trace (`TraceRowReader.resumed`): the
    /// trace's first bytes were looked at already.
    func resumed(storage: TraceRowStorage) -> RecordChunks {
        var c = RecordChunks(storage: storage)
        c.magic = magic
        return c
    }

    /// The longest record carried across chunks (16 MiB): a trace without line breaks (`/dev/zero`,
    /// one endless line) stops there instead of growing until memory runs out.
    static let maxRecordBytes = 16 << 20

    /// Whether the record carried is past `maxRecordBytes`.
    var carriesTooMuch: Bool { carrying && storage.record.count > Self.maxRecordBytes }

    /// The compression the trace's first bytes say, once they are in.
    var compressed: TraceCompression? { magic.found }

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
        magic.feed(chunk)
        self.chunk = chunk
        at = 0
    }

    /// The end of the trace: no more chunks.
    mutating func finish() {
        magic.finish()
        chunk = UnsafeBufferPointer(start: nil, count: 0)
        at = 0
        finished = true
    }

    /// The record that ends at `end` (its line break), what was carried first; reading goes on
    /// after the line break.
    mutating func take(upTo end: Int) -> UnsafeBufferPointer<UInt8> {
        let record: UnsafeBufferPointer<UInt8>
        if carrying {
            storage.appendRecord(UnsafeBufferPointer(rebasing: chunk[at..<end]))
            record = storage.record.bytes
            carrying = false
        } else {
            record = UnsafeBufferPointer(rebasing: chunk[at..<end])
        }
        at = end + 1
        return record
    }

    /// Keeps what is left of the chunk (a record its end cut) for the next chunk.
    mutating func carryRest() {
        guard at < chunk.count else { return }
        if !carrying { storage.clearRecord() }
        storage.appendRecord(UnsafeBufferPointer(rebasing: chunk[at...]))
        carrying = true
        at = chunk.count
    }

    /// After `finish`: the record carried to the end (one without a final line break), if any.
    mutating func takeCarried() -> UnsafeBufferPointer<UInt8>? {
        guard carrying else { return nil }
        carrying = false
        return storage.record.bytes
    }

    /// Where byte `i` of the chunk stands in the record being read (what was carried first).
    func offsetInRecord(_ i: Int) -> Int { (carrying ? storage.record.count : 0) + i - at }

    /// Drops the first `count` bytes of the record being read (a part found bad): reading goes
    /// on after them, from the chunk or from what is left carried.
    mutating func dropRecordHead(_ count: Int) {
        let carried = carrying ? storage.record.count : 0
        if count >= carried {
            at += count - carried
            carrying = false
        } else {
            storage.dropRecordHead(count)
        }
    }

    /// Drops a carried record (one that cannot end: a quote left open).
    mutating func dropCarried() { carrying = false }
}
