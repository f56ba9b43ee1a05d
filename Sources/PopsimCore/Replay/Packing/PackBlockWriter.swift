/// One block of a pack being written (`TracePack`): whole users as `PartitionCodec` records whose
/// values are numbers into the block's own table, each value's text written once, in a values
/// record just before the first user that uses it.
///
/// Why a table: a trace has few distinct screens, buttons and settings, and reading a text back
/// means interning it again (a hash and a lookup a row, most of a pack's reading); a block reads
/// each once. Records (after the `PSPT` header):
/// - **values** (tag 3): their count, then each: a kind byte (0 a text; 1 a setting, then its
///   variable's index), its text (the setting's as a trace writes it);
/// - **a user** (tag 4): a run record (tag 1's fields) whose values are 0 (none) or 1 + their
///   number in the block's table.
///
/// Contract: `PartitionCodec.Reader` reads a block back to the users and values written; a block
/// is never split (a user's rows are never split, and its table is the block's).
public struct PackBlockWriter {
    public private(set) var bytes: [UInt8] = PartitionCodec.header
    /// Each value written: its kind and text as a key, its number.
    private var table: [[UInt8]: Int] = [:]
    private var key: [UInt8] = []
    private var fresh: [UInt8] = []
    private var freshCount = 0

    public init() {}

    /// Whether it holds no user.
    public var isEmpty: Bool { bytes.count == PartitionCodec.header.count }

    /// A new block.
    public mutating func reset() {
        bytes = PartitionCodec.header
        table.removeAll(keepingCapacity: true)
    }

    /// Appends a user: a values record first when its rows use values the block has not yet.
    public mutating func add(user: UnsafeBufferPointer<UInt8>, firstRow: Int, rows: [TimedEntry], values: TraceValues) {
        fresh.removeAll(keepingCapacity: true)
        freshCount = 0
        let body = PartitionCodec.runBody(tag: 4, user: user, firstRow: firstRow, bad: false, rows: rows.lazy.map { ($0.time, $0.entry) }) { e, body in
            body.append(e.op)
            PartitionCodec.signed(Int(e.popup), &body)
            PartitionCodec.unsigned(number(e, values).map { $0 + 1 } ?? 0, &body)
        }
        if freshCount > 0 {
            var record: [UInt8] = [3]
            PartitionCodec.unsigned(freshCount, &record)
            record += fresh
            PartitionCodec.unsigned(record.count, &bytes)
            bytes += record
        }
        PartitionCodec.unsigned(body.count, &bytes)
        bytes += body
    }

    /// The table's number of an entry's value (written to `fresh` when new); nil for none.
    private mutating func number(_ e: PackedEntry, _ values: TraceValues) -> Int? {
        key.removeAll(keepingCapacity: true)
        var text: String
        if e.holdsSetting {
            guard let setting = values.setting(e.value) else { return nil }
            key.append(1)
            PartitionCodec.unsigned(setting.0.index, &key)
            text = TraceValues.raw(setting.1)
        } else {
            guard let t = values.text(e.value) else { return nil }
            key.append(0)
            text = t
        }
        text.withUTF8 { PartitionCodec.bytes($0, &key) }
        if let n = table[key] { return n }
        let n = table.count
        table[key] = n
        fresh += key
        freshCount += 1
        return n
    }
}
