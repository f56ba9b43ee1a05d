/// JSON Lines: one object per line, a field per key (the last of a key given twice); a string, a
/// number (as written) or a boolean; `null` or an empty string is no value. Blank lines skipped;
/// every other line is a row, a bad one included.
public struct JSONLinesTraceReader: TraceRowReader {
    let file: String
    let names: [String]
    private var chunks: RecordChunks
    private var ended = false
    /// A line past `RecordChunks.maxRecordBytes`, to report once.
    private var tooLong: TraceError?
    private var line = 1
    public private(set) var rowCount = 0
    private let storage = TraceRowStorage()

    public init(layout: TraceLayout, file: String) {
        self.file = file
        names = layout.names
        chunks = RecordChunks(storage: storage)
    }

    private init(resuming r: JSONLinesTraceReader) {
        file = r.file
        names = r.names
        chunks = r.chunks.resumed(storage: storage)
    }

    public func resumed() -> JSONLinesTraceReader? {
        guard !ended, tooLong == nil, chunks.compressed == nil else { return nil }
        return JSONLinesTraceReader(resuming: self)
    }

    public var isBetweenRecords: Bool { !chunks.carrying }

    public var linesRead: Int { line - 1 }

    public mutating func advance(rows: Int, lines: Int) {
        rowCount += rows
        line += lines
    }

    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) { chunks.feed(chunk) }

    public mutating func finish() { chunks.finish() }

    public mutating func next() -> TracePull? {
        if !ended, let c = chunks.compressed {
            ended = true
            return .problem(error(line: 1, column: 1, .compressed(c)))
        }
        while let record = nextLine() {
            if let pull = take(record) { return pull }
        }
        if let e = tooLong {
            tooLong = nil
            return .problem(e)
        }
        return nil
    }

    private mutating func nextLine() -> UnsafeBufferPointer<UInt8>? {
        if ended { return nil }
        if let end = chunks.chunk[chunks.at...].firstIndex(of: UInt8(ascii: "\n")) { return chunks.take(upTo: end) }
        chunks.carryRest()
        if chunks.carriesTooMuch {
            ended = true
            chunks.dropCarried()
            tooLong = error(line: line, column: 1, .recordTooLong(limit: RecordChunks.maxRecordBytes))
            return nil
        }
        guard chunks.finished else { return nil }
        ended = true
        return chunks.takeCarried()
    }

    private mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) -> TracePull? {
        var record = bytes
        if let last = record.last, last == UInt8(ascii: "\r") { record = UnsafeBufferPointer(rebasing: record.dropLast()) }
        let at = line
        line += 1
        guard !record.isEmpty, !record.allSatisfy({ $0 == 32 || $0 == 9 }) else { return nil }
        rowCount += 1
        let root: JSONValue
        do {
            root = try JSONReader.parse(Array(record))
        } catch {
            return .problem(self.error(line: at, column: error.location.column, .json(error.message)))
        }
        guard case .object(let members) = root.kind else {
            return .problem(error(line: at, column: root.location.column, .notAnObject(got: root.errorDescription)))
        }
        storage.clearSlots()
        storage.clearScratch()
        var spans: [(field: Int, start: Int, end: Int, column: Int)] = []
        for field in TraceField.allCases {
            let name = names[field.ordinal]
            guard let first = members.firstIndex(where: { $0.key == name }) else { continue }
            if let again = members[(first + 1)...].first(where: { $0.key == name }) {
                return .problem(error(line: at, column: again.keyLocation.column, .duplicateField(name: name)))
            }
            let member = members[first]
            let start = storage.scratchCount
            let column = member.value.location.column
            switch member.value.kind {
            case .string(var s): s.withUTF8 { storage.appendScratch($0) }
            case .number(let n):
                var text = n.text
                text.withUTF8 { storage.appendScratch($0) }
            case .bool(let b): for c in (b ? "true" : "false").utf8 { storage.appendScratch(c) }
            case .null: break
            case .object, .array:
                return .problem(error(line: at, column: column, .notAScalar(name: name, got: member.value.errorDescription)))
            }
            spans.append((field.ordinal, start, storage.scratchCount, column))
        }
        for s in spans { storage.setScratchSlot(s.field, s.start, s.end, column: s.column) }
        return .row(TraceRow(row: rowCount, line: at, slots: storage.slots))
    }

    func error(line: Int, column: Int, _ problem: TraceProblem) -> TraceError {
        TraceError(file: file, location: SourceLocation(line: line, column: column), problem: problem)
    }
}

extension TraceFormat {
    /// JSON Lines: an object per line (`JSONLinesTraceReader`).
    public static let jsonLines = TraceFormat(
        name: "jsonl", title: "JSON Lines", extensions: [".jsonl", ".ndjson"], splitsAtLineBreaks: true,
        sniffs: { firstByte($0) == UInt8(ascii: "{") },
        reader: { JSONLinesTraceReader(layout: $0, file: $1) })
}
