/// One row of a trace as a reader hands it out: its number, its line, and per `TraceField` the
/// field's bytes and column. What the row means (which popup, which state value) is
/// `TraceRowDecoder`'s: readers only split bytes, so every format is decoded by one piece of code.
///
/// Contract: valid until the reader that made it is pulled again (its bytes are the reader's or
/// the chunk's); an empty field is no value; the column of a field the row lacks is the last
/// field's (CSV: a short row) or 1 (a column the header does not have).
public struct TraceRow {
    /// The row's number in the trace (the CSV header is not a row), from 1.
    public let row: Int
    /// The line it starts on.
    public let line: Int
    let slots: UnsafePointer<TraceRow.Slot>
    /// The user's hash (`UserTable.hash`), when the reader has it already (`IndexedRows`).
    var userHash: UInt64? = nil

    /// Where one field's bytes are, and its column (from 1).
    struct Slot {
        var base: UnsafePointer<UInt8>?
        var count: Int
        var column: Int

        static var absent: Slot { Slot(base: nil, count: 0, column: 1) }
    }

    /// The field's bytes; nil when the row has none or it is empty.
    public subscript(_ field: TraceField) -> UnsafeBufferPointer<UInt8>? {
        let s = slots[field.ordinal]
        guard let base = s.base, s.count > 0 else { return nil }
        return UnsafeBufferPointer(start: base, count: s.count)
    }

    public func location(_ field: TraceField) -> SourceLocation {
        SourceLocation(line: line, column: slots[field.ordinal].column)
    }
}

/// The memory a reader lends its rows: a slot per field, the bytes of a record that began in an
/// earlier chunk, and the unquoted or unescaped bytes of fields that are not the record's own.
/// A class so that its buffers are freed with the last reader that holds it.
final class TraceRowStorage {
    let slots: UnsafeMutablePointer<TraceRow.Slot>
    /// A record carried across chunks.
    private(set) var record = ByteBuffer()
    /// Fields rewritten (quotes removed, JSON strings unescaped), one after another.
    private(set) var scratch = ByteBuffer()

    init() {
        slots = .allocate(capacity: TraceField.count)
        slots.initialize(repeating: .absent, count: TraceField.count)
    }

    deinit {
        slots.deallocate()
        record.free()
        scratch.free()
    }

    func clearSlots() {
        for i in 0..<TraceField.count { slots[i] = .absent }
    }

    func appendRecord(_ bytes: UnsafeBufferPointer<UInt8>) { record.append(bytes) }
    func clearRecord() { record.count = 0 }
    /// Drops the carried record's first `n` bytes (`n` < its count).
    func dropRecordHead(_ n: Int) {
        guard let base = record.base, n > 0, n < record.count else { return }
        base.update(from: base + n, count: record.count - n)
        record.count -= n
    }
    func clearScratch() { scratch.count = 0 }
    func appendScratch(_ bytes: UnsafeBufferPointer<UInt8>) { scratch.append(bytes) }
    func appendScratch(_ byte: UInt8) { scratch.append(byte) }
    var scratchCount: Int { scratch.count }

    /// Points the field's slot at scratch bytes `start..<end` (call once every field is in:
    /// scratch may move while it grows).
    func setScratchSlot(_ field: Int, _ start: Int, _ end: Int, column: Int) {
        slots[field] = TraceRow.Slot(base: scratch.base.map { UnsafePointer($0 + start) }, count: end - start, column: column)
    }
}

/// A growable byte buffer with a stable address between appends: what a reader lends its rows.
typealias ByteBuffer = FlatBuffer<UInt8>

extension FlatBuffer<UInt8> {
    var bytes: UnsafeBufferPointer<UInt8> { elements }
}

extension TraceRow {
    /// A row made of texts, each at column 1 (an empty text is no value): what the generator and
    /// tests decode. `body` gets it while the texts are held.
    public static func withTexts<R>(_ texts: [TraceField: String], row: Int = 1, line: Int = 1, _ body: (TraceRow) -> R) -> R {
        let storage = TraceRowStorage()
        var spans: [(Int, Int, Int)] = []
        for field in TraceField.allCases {
            guard var text = texts[field] else { continue }
            let start = storage.scratchCount
            text.withUTF8 { storage.appendScratch($0) }
            spans.append((field.ordinal, start, storage.scratchCount))
        }
        for (f, start, end) in spans { storage.setScratchSlot(f, start, end, column: 1) }
        return withExtendedLifetime(storage) { body(TraceRow(row: row, line: line, slots: storage.slots)) }
    }
}
