/// Splits a trace into records as its bytes arrive, CSV (RFC 4180: a header row, `"` quotes,
/// `""` inside them, CRLF or LF) or JSON Lines (one object per line).
///
/// Contract: bytes are fed in chunks of any size and give the same records as the whole file at
/// once; memory is one record plus one chunk. A problem is a located `LoadError` (line and column
/// of the row), never a crash: a row that cannot be split is reported and skipped, and reading
/// goes on (the caller decides when to stop).
public struct TraceReader: Sendable {
    public let file: String
    public let layout: TraceLayout
    /// Bytes of the record being read (a chunk's unfinished tail).
    private var pending: [UInt8] = []
    private var inQuotes = false
    private var scanned = 0
    /// The bytes of the pending record so far, or-ed (a high bit: not ASCII), and whether it
    /// holds a quote: a plain record (neither) takes the fast way.
    private var scannedBits: UInt64 = 0
    private var sawQuote = false
    /// The line the pending record starts on, and the next line to be counted.
    private var line = 1
    private var rows = 0
    /// CSV: per field, its column index in the header (-1: absent); nil until the header is read.
    private var header: [Int]?

    /// The next record's line and the rows read so far.
    public var nextLine: Int { line }
    public var rowCount: Int { rows }
    /// Whether every byte fed so far ends a record (no record half read, no quote open): where a
    /// second reader may have started.
    public var isAtBoundary: Bool { pending.isEmpty && !inQuotes }
    public var hasHeader: Bool { header != nil }

    public init(file: String, layout: TraceLayout) {
        self.file = file
        self.layout = layout
    }

    /// Reads every complete record of `chunk` (with what came before it) into `collector`.
    /// A chunk that starts a record is read where it is; only its unfinished tail is kept.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into collector: inout TraceCollector) {
        guard !pending.isEmpty else {
            let start = scan(chunk, from: 0, into: &collector)
            pending = Array(chunk[start...])
            scanned = pending.count
            return
        }
        pending.append(contentsOf: chunk)
        let buffer = pending
        pending = []
        let first = scanned
        let start = buffer.withUnsafeBufferPointer { scan($0, from: first, into: &collector) }
        pending = Array(buffer[start...])
        scanned = pending.count
    }

    /// Reads the records that end in `all` from byte `first` on; returns where the unfinished one
    /// starts. Eight bytes at a time while no line break or quote is among them (and no quote
    /// is open): a word's bytes are or-ed into `scannedBits` (a high bit: not ASCII).
    private mutating func scan(_ all: UnsafeBufferPointer<UInt8>, from first: Int, into collector: inout TraceCollector) -> Int {
        guard let base = all.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
        let csv = layout.format == .csv
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let newlines = ones &* UInt64(newline), quotes = ones &* UInt64(quote)
        var start = 0, i = first
        var bits = scannedBits
        while i < all.count {
            if !inQuotes, i + 8 <= all.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let n = w ^ newlines, q = w ^ quotes
                let found = ((n &- ones) & ~n & highs) | (csv ? (q &- ones) & ~q & highs : 0)
                if found == 0 {
                    bits |= w
                    i += 8
                    continue
                }
            }
            let c = all[i]
            bits |= UInt64(c)
            if c == newline && !inQuotes {
                record(all, start..<i, plain: bits & highs == 0 && !sawQuote, into: &collector)
                start = i + 1
                bits = 0
                sawQuote = false
            } else if csv && c == quote {
                inQuotes.toggle()
                sawQuote = true
            }
            i += 1
        }
        scannedBits = bits
        return start
    }

    /// Reads the last record (one without a final newline); reports a quote left open.
    public mutating func finish(into collector: inout TraceCollector) {
        if inQuotes {
            collector.take(error: error(line: line, column: 1, .syntax("a quoted field is not closed before the end of the trace")))
            pending = []
            return
        }
        let buffer = pending
        pending = []
        if !buffer.isEmpty {
            buffer.withUnsafeBufferPointer { record($0, 0..<$0.count, plain: false, into: &collector) }
        }
        scanned = 0
        if header == nil && layout.format == .csv {
            collector.take(error: error(line: 1, column: 1, .syntax("the trace is empty: expected a header row, like user,time,action,popup,value")))
        }
    }

    private mutating func record(_ all: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plain: Bool, into collector: inout TraceCollector) {
        var end = range.upperBound
        if end > range.lowerBound, all[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let at = line
        line += 1
        if !plain { line += all[range].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
        let bytes = UnsafeBufferPointer(rebasing: all[range.lowerBound..<end])
        guard !collector.isStopped, !bytes.isEmpty, !bytes.allSatisfy({ $0 == 32 || $0 == 9 }) else { return }
        switch layout.format {
        case .csv:
            if plain, let header, collector.take(fast: fields(bytes, header: header, line: at, row: rows + 1)) {
                rows += 1
                return
            }
            csvRecord(bytes, line: at, into: &collector)
        case .jsonl: jsonRecord(bytes, line: at, into: &collector)
        }
    }

    /// A plain row's fields by the header's columns (no allocation: a row is split in place).
    private func fields(_ bytes: UnsafeBufferPointer<UInt8>, header: [Int], line: Int, row: Int) -> TraceFields {
        var f = TraceFields(line: line, row: row, bytes: bytes, starts: (-1, -1, -1, -1, -1), ends: (-1, -1, -1, -1, -1))
        let (h0, h1, h2, h3, h4) = (header[0], header[1], header[2], header[3], header[4])
        var column = 0, fieldStart = 0, k = 0
        let n = bytes.count
        while true {
            while k < n, bytes[k] != UInt8(ascii: ",") { k += 1 }
            if column == h0 { f.starts.0 = fieldStart; f.ends.0 = k }
            if column == h1 { f.starts.1 = fieldStart; f.ends.1 = k }
            if column == h2 { f.starts.2 = fieldStart; f.ends.2 = k }
            if column == h3 { f.starts.3 = fieldStart; f.ends.3 = k }
            if column == h4 { f.starts.4 = fieldStart; f.ends.4 = k }
            guard k < n else { break }
            k += 1
            column += 1
            fieldStart = k
        }
        return f
    }

    func error(line: Int, column: Int, _ problem: LoadProblem) -> LoadError {
        LoadError(file: file, location: SourceLocation(line: line, column: column), path: .root, problem: problem)
    }

    // MARK: CSV

    /// The fields of one CSV record, unquoted, each with its column.
    private func csvFields(_ pending: UnsafeBufferPointer<UInt8>, line: Int) -> Result<[(String, Int)], LoadError> {
        var fields: [(String, Int)] = []
        let range = 0..<pending.count
        var i = range.lowerBound
        var column = 1
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        while true {
            let startColumn = column
            var bytes: [UInt8] = []
            if i < range.upperBound, pending[i] == quote {
                i += 1
                column += 1
                while true {
                    guard i < range.upperBound else { break }
                    let c = pending[i]
                    if c == quote {
                        if i + 1 < range.upperBound, pending[i + 1] == quote {
                            bytes.append(quote)
                            i += 2
                            column += 2
                            continue
                        }
                        i += 1
                        column += 1
                        break
                    }
                    bytes.append(c)
                    if c & 0xC0 != 0x80 { column += 1 }
                    if c == UInt8(ascii: "\n") { column = 1 }
                    i += 1
                }
                if i < range.upperBound, pending[i] != comma {
                    return .failure(error(line: line, column: column, .syntax("expected ',' or the end of the row after a quoted field")))
                }
            } else {
                while i < range.upperBound, pending[i] != comma {
                    bytes.append(pending[i])
                    if pending[i] & 0xC0 != 0x80 { column += 1 }
                    i += 1
                }
            }
            fields.append((String(decoding: bytes, as: UTF8.self), startColumn))
            guard i < range.upperBound else { break }
            i += 1
            column += 1
        }
        return .success(fields)
    }

    private mutating func csvRecord(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, into collector: inout TraceCollector) {
        let fields: [(String, Int)]
        switch csvFields(bytes, line: line) {
        case .success(let f): fields = f
        case .failure(let e): return collector.take(error: e)
        }
        guard let header else {
            readHeader(fields, line: line, into: &collector)
            return
        }
        rows += 1
        var record = TraceRecord(row: rows, line: line, fields: Array(repeating: nil, count: 5), columns: Array(repeating: 1, count: 5))
        for (f, at) in header.enumerated() where at >= 0 {
            if at < fields.count {
                let text = fields[at].0
                record.fields[f] = text.isEmpty ? nil : text
                record.columns[f] = fields[at].1
            } else {
                record.columns[f] = (fields.last?.1 ?? 1)
            }
        }
        collector.take(record)
    }

    private mutating func readHeader(_ fields: [(String, Int)], line: Int, into collector: inout TraceCollector) {
        var map = Array(repeating: -1, count: 5)
        for (f, field) in TraceLayout.Field.allCases.enumerated() {
            let name = layout.name(of: field)
            if let at = fields.firstIndex(where: { $0.0 == name }) { map[f] = at }
        }
        header = map
        for (f, field) in TraceLayout.Field.allCases.prefix(3).enumerated() where map[f] < 0 {
            let name = layout.name(of: field)
            let header = fields.map { JSONValue.quoted($0.0) }.joined(separator: ", ")
            collector.take(error: error(line: line, column: 1,
                                .expected("a column named '\(name)' in the header (or --columns \(field.rawValue)=NAME)", got: header)))
        }
    }

    // MARK: JSON Lines

    private mutating func jsonRecord(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, into collector: inout TraceCollector) {
        rows += 1
        let root: JSONValue
        do {
            root = try JSONReader.parse(Array(bytes))
        } catch {
            return collector.take(error: self.error(line: line, column: error.location.column, .syntax(error.message)))
        }
        guard case .object(let members) = root.kind else {
            return collector.take(error: error(line: line, column: root.location.column, .expected("a JSON object per line", got: root.errorDescription)))
        }
        var record = TraceRecord(row: rows, line: line, fields: Array(repeating: nil, count: 5), columns: Array(repeating: 1, count: 5))
        for (f, field) in TraceLayout.Field.allCases.enumerated() {
            let name = layout.name(of: field)
            guard let member = members.last(where: { $0.key == name }) else { continue }
            record.columns[f] = member.value.location.column
            switch member.value.kind {
            case .string(let s): record.fields[f] = s.isEmpty ? nil : s
            case .number(let n): record.fields[f] = n.text
            case .bool(let b): record.fields[f] = b ? "true" : "false"
            case .null: break
            case .object, .array:
                return collector.take(error: error(line: line, column: member.value.location.column,
                                                   .expected("a string or a number for \"\(name)\"", got: member.value.errorDescription)))
            }
        }
        collector.take(record)
    }
}
