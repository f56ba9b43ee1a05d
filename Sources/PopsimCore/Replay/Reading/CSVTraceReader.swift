/// CSV (RFC 4180): a header row naming the columns, `"` quoting a field, `""` a quote inside one,
/// LF or CRLF; blank lines skipped.
///
/// A plain record (ASCII, no quote) is split in place, fields pointing into the chunk; any other
/// goes the careful way, its fields unquoted into the reader's storage with their columns counted
/// in characters. Both give the same row. A record without a final line break is read at
/// `finish`.
public struct CSVTraceReader: TraceRowReader {
    let file: String
    let names: [String]
    /// Per field: its column index in the header (-1: absent); nil until the header is read.
    private var header: [Int]?
    /// Per column of the header up to the last one a field reads: that field's slot, or -1.
    private var fieldOfColumn: [Int] = []
    private var chunks: RecordChunks
    private var inQuotes = false
    /// The line breaks a quoted field may hold (`TraceLayout.quotedLineBreaks`), those met in the
    /// record so far, and where the first of them stands in it.
    private let quotedBreaksAllowed: Int
    private var quotedBreaks = 0
    private var firstQuotedBreak = 0
    /// The record's bytes so far or-ed (a high bit: not ASCII), and whether it holds a quote.
    private var bits: UInt64 = 0
    private var sawQuote = false
    /// Whether the record after the last line break was taken (after `finish`), and the end met.
    private var lastTaken = false
    private var ended = false
    /// The line the next record starts on.
    private var line = 1
    public private(set) var rowCount = 0
    private var problems: [TraceError] = []
    private let storage = TraceRowStorage()
    /// The plain record handed out last, while only its user is split.
    private var unsplit: UnsafeBufferPointer<UInt8>?

    public init(layout: TraceLayout, file: String) {
        self.file = file
        names = layout.names
        quotedBreaksAllowed = layout.quotedLineBreaks ?? .max
        chunks = RecordChunks(storage: storage)
    }

    private init(resuming r: CSVTraceReader) {
        file = r.file
        names = r.names
        quotedBreaksAllowed = r.quotedBreaksAllowed
        header = r.header
        fieldOfColumn = r.fieldOfColumn
        chunks = r.chunks.resumed(storage: storage)
    }

    public func resumed() -> CSVTraceReader? {
        guard header != nil, problems.isEmpty, !ended, chunks.compressed == nil else { return nil }
        return CSVTraceReader(resuming: self)
    }

    public var isBetweenRecords: Bool { !chunks.carrying && !inQuotes }

    public var linesRead: Int { line - 1 }

    public mutating func advance(rows: Int, lines: Int) {
        rowCount += rows
        line += lines
    }

    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) { chunks.feed(chunk) }

    public mutating func finish() { chunks.finish() }

    public mutating func next() -> TracePull? {
        unsplit = nil
        if let row = nextPlain() { return row }
        while true {
            if !problems.isEmpty { return .problem(problems.removeFirst()) }
            guard let (record, plain) = nextRecord() else {
                return problems.isEmpty ? nil : .problem(problems.removeFirst())
            }
            if let pull = take(record, plain: plain) { return pull }
        }
    }

    /// The common row the short way: after the header, nothing carried or waiting, a plain record
    /// (ASCII, no quote, not blank) that ends in this chunk — what `nextRecord` and `take` make
    /// of it, in one pass (their state kept in the reader cost ~150 instructions a row). Any
    /// other record is left as it was, nothing consumed, for them (nil).
    @inline(__always)
    private mutating func nextPlain() -> TracePull? {
        guard let header, problems.isEmpty, !ended, !chunks.carrying, !inQuotes, bits == 0, !sawQuote, quotedBreaks == 0,
              chunks.compressed == nil, let base = chunks.chunk.baseAddress else { return nil }
        let start = chunks.at, n = chunks.chunk.count
        let (i, b) = Self.plainRun(base, from: start, count: n)
        guard i < n, base[i] == UInt8(ascii: "\n"), b & 0x8080_8080_8080_8080 == 0 else { return nil }
        var end = i
        if end > start, base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end > start, base[start] != 32, base[start] != 9 else { return nil }
        _ = chunks.take(upTo: i)
        let record = UnsafeBufferPointer(start: base + start, count: end - start)
        let at = line
        line += 1
        storage.clearSlots()
        Self.splitUser(record, header: header, slots: storage.slots)
        unsplit = record
        rowCount += 1
        return .row(TraceRow(row: rowCount, line: at, slots: storage.slots))
    }

    /// The next complete record (its bytes without the line break) and whether it is plain; nil
    /// when the chunk ends inside one (kept for the next chunk) or, after `finish`, at the end.
    private mutating func nextRecord() -> (UnsafeBufferPointer<UInt8>, Bool)? {
        if ended { return nil }
        if let c = chunks.compressed {
            ended = true
            problems.append(error(line: 1, column: 1, .compressed(c)))
            return nil
        }
        if let end = scan() {
            let plain = bits & 0x8080_8080_8080_8080 == 0 && !sawQuote
            bits = 0
            sawQuote = false
            quotedBreaks = 0
            return (chunks.take(upTo: end), plain)
        }
        // The chunk ends inside a record: keep its bytes for the next chunk.
        chunks.carryRest()
        if chunks.carriesTooMuch {
            ended = true
            chunks.dropCarried()
            problems.append(error(line: line, column: 1, .recordTooLong(limit: RecordChunks.maxRecordBytes)))
            return nil
        }
        guard chunks.finished else { return nil }
        if !lastTaken {
            lastTaken = true
            if inQuotes {
                // Nothing after it can be read: no word of the header either.
                ended = true
                chunks.dropCarried()
                problems.append(error(line: line, column: 1, .quoteNotClosed))
                return nil
            }
            if let last = chunks.takeCarried() {
                let plain = bits & 0x8080_8080_8080_8080 == 0 && !sawQuote
                bits = 0
                return (last, plain)
            }
        }
        ended = true
        if header == nil { problems.append(error(line: 1, column: 1, .emptyTrace)) }
        return nil
    }

    /// Where the record that starts at `at` (or was carried) ends in the chunk: its line break
    /// outside quotes. Outside quotes, a word at a time up to the next line break or quote
    /// (`plainRun`).
    private mutating func scan() -> Int? {
        let chunk = chunks.chunk
        guard let base = chunk.baseAddress else { return nil }
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
        var i = chunks.at
        let n = chunk.count
        var b = bits
        defer { bits = b }
        while i < n {
            if !inQuotes {
                let (next, run) = Self.plainRun(base, from: i, count: n)
                b |= run
                i = next
                guard i < n else { return nil }
            }
            let c = base[i]
            b |= UInt64(c)
            if c == newline {
                if !inQuotes { return i }
                quotedBreaks += 1
                if quotedBreaks == 1 { firstQuotedBreak = chunks.offsetInRecord(i) }
                if quotedBreaks > quotedBreaksAllowed {
                    cutAtFirstQuotedBreak()
                    i = chunks.at
                    b = bits
                    continue
                }
            }
            if c == quote {
                inQuotes.toggle()
                sawQuote = true
            }
            i += 1
        }
        return nil
    }

    /// The first line break or quote at or after `i` (`n` when none) and the bytes before it
    /// or-ed together (a high bit: not ASCII): eight bytes at a time while none of them is one.
    @inline(__always)
    private static func plainRun(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> (Int, UInt64) {
        let raw = UnsafeRawPointer(base)
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let newlines = ones &* UInt64(newline), quotes = ones &* UInt64(quote)
        var i = start, b: UInt64 = 0
        while i + 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let x = w ^ newlines, q = w ^ quotes
            let found = ((x &- ones) & ~x & highs) | ((q &- ones) & ~q & highs)
            if found != 0 {
                // The first byte flagged is a line break or a quote (a borrow only flags bytes after it).
                let at = found.trailingZeroBitCount >> 3
                if at > 0 { b |= w & ((1 << (at << 3)) &- 1) }
                return (i + at, b)
            }
            b |= w
            i += 8
        }
        while i < n, base[i] != newline, base[i] != quote {
            b |= UInt64(base[i])
            i += 1
        }
        return (i, b)
    }

    /// A quoted field ran past more line breaks than it may hold: its quote is taken as left
    /// open, the record's first line is a bad row, and reading starts again on the next line
    /// (what was carried of it read again for its quotes).
    private mutating func cutAtFirstQuotedBreak() {
        problems.append(error(line: line, column: 1, .quoteSpansLines(limit: quotedBreaksAllowed)))
        line += 1
        inQuotes = false
        sawQuote = false
        bits = 0
        quotedBreaks = 0
        chunks.dropRecordHead(firstQuotedBreak + 1)
        guard chunks.carrying else { return }
        for c in storage.record.bytes {
            bits |= UInt64(c)
            if c == UInt8(ascii: "\"") {
                inQuotes.toggle()
                sawQuote = true
            }
        }
    }

    /// A record: the header, a row, a problem, or nothing (a blank line).
    private mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, plain: Bool) -> TracePull? {
        var record = bytes
        if let last = record.last, last == UInt8(ascii: "\r") { record = UnsafeBufferPointer(rebasing: record.dropLast()) }
        let at = line
        line += 1
        if !plain { line += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
        guard !record.isEmpty, !record.allSatisfy({ $0 == 32 || $0 == 9 }) else { return nil }
        guard let header else {
            // A UTF-8 byte order mark (Excel's "CSV UTF-8") is not part of the first column's name.
            if record.count >= 3, record[0] == 0xEF, record[1] == 0xBB, record[2] == 0xBF { record = UnsafeBufferPointer(rebasing: record.dropFirst(3)) }
            readHeader(record, line: at)
            return nil
        }
        storage.clearSlots()
        if plain {
            Self.splitUser(record, header: header, slots: storage.slots)
            unsplit = record
        } else if let problem = unquote(record, header: header, line: at) {
            return .problem(problem)
        }
        rowCount += 1
        return .row(TraceRow(row: rowCount, line: at, slots: storage.slots))
    }

    /// The other fields of the plain row handed out last (its user is split already).
    public mutating func completeRow() {
        guard let record = unsplit, let header else { return }
        unsplit = nil
        Self.split(record, header: header, fieldOfColumn: fieldOfColumn, slots: storage.slots)
    }

    /// Only the user of a plain record, in place: the bytes between the commas around its column
    /// (what `split` gives it; the other fields wait for `completeRow`).
    /// Static, as `split`: a method on the reader copied the whole reader once a row.
    private static func splitUser(_ bytes: UnsafeBufferPointer<UInt8>, header: [Int], slots: UnsafeMutablePointer<TraceRow.Slot>) {
        guard let base = bytes.baseAddress else { return }
        let column = header[TraceField.user.ordinal]
        guard column >= 0 else { return }
        let n = bytes.count
        var start = 0, k = 0, c = 0
        while true {
            k = Self.comma(base, from: k, count: n)
            if c == column {
                slots[TraceField.user.ordinal] = TraceRow.Slot(base: base + start, count: k - start, column: start + 1)
                return
            }
            guard k < n else { break }
            k += 1
            c += 1
            start = k
        }
        // A row short of the user's column: it stands at the last field.
        slots[TraceField.user.ordinal] = TraceRow.Slot(base: nil, count: 0, column: start + 1)
    }

    /// A plain record's fields in place: the bytes between commas, each at its byte's column.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, header: [Int], fieldOfColumn: [Int],
                              slots: UnsafeMutablePointer<TraceRow.Slot>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        var column = 0, start = 0, k = 0
        fieldOfColumn.withUnsafeBufferPointer { map in
            let last = map.count - 1
            while true {
                k = Self.comma(base, from: k, count: n)
                let f = map[column]
                if f >= 0 { slots[f] = TraceRow.Slot(base: base + start, count: k - start, column: start + 1) }
                guard k < n, column < last else { break }
                k += 1
                column += 1
                start = k
            }
        }
        // Columns the header has and this row lacks stand at the last field.
        if column < fieldOfColumn.count - 1 {
            for f in 0..<header.count where header[f] > column {
                slots[f] = TraceRow.Slot(base: nil, count: 0, column: start + 1)
            }
        }
    }

    /// The first comma at or after `k`, or `n`: eight bytes at a time.
    @inline(__always)
    static func comma(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080, commas = ones &* UInt64(UInt8(ascii: ","))
        var k = start
        while k + 8 <= n {
            let x = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ commas
            let found = (x &- ones) & ~x & highs
            if found != 0 { return k + found.trailingZeroBitCount >> 3 }
            k += 8
        }
        while k < n, base[k] != UInt8(ascii: ",") { k += 1 }
        return k
    }

    /// Any record's fields, unquoted into storage, each at its column in characters (a quote
    /// counts one, a line break inside quotes starts column 1 again); nil, or its problem.
    private func unquote(_ record: UnsafeBufferPointer<UInt8>, header: [Int], line: Int) -> TraceError? {
        storage.clearScratch()
        var fields: [(start: Int, end: Int, column: Int)] = []
        switch fieldsOf(record, line: line, into: &fields) {
        case .some(let problem): return problem
        case .none: break
        }
        for f in 0..<header.count where header[f] >= 0 {
            if header[f] < fields.count {
                let field = fields[header[f]]
                storage.setScratchSlot(f, field.start, field.end, column: field.column)
            } else {
                storage.slots[f] = TraceRow.Slot(base: nil, count: 0, column: fields.last?.column ?? 1)
            }
        }
        return nil
    }

    /// Splits a record into unquoted fields (appended to storage's scratch).
    private func fieldsOf(_ record: UnsafeBufferPointer<UInt8>, line: Int, into fields: inout [(start: Int, end: Int, column: Int)]) -> TraceError? {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        var i = 0, column = 1
        let n = record.count
        while true {
            let startColumn = column
            let start = storage.scratchCount
            if i < n, record[i] == quote {
                i += 1
                column += 1
                while i < n {
                    let c = record[i]
                    if c == quote {
                        if i + 1 < n, record[i + 1] == quote {
                            storage.appendScratch(quote)
                            i += 2
                            column += 2
                            continue
                        }
                        i += 1
                        column += 1
                        break
                    }
                    storage.appendScratch(c)
                    if c & 0xC0 != 0x80 { column += 1 }
                    if c == UInt8(ascii: "\n") { column = 1 }
                    i += 1
                }
                if i < n, record[i] != comma { return error(line: line, column: column, .textAfterQuote) }
            } else {
                while i < n, record[i] != comma {
                    storage.appendScratch(record[i])
                    if record[i] & 0xC0 != 0x80 { column += 1 }
                    i += 1
                }
            }
            fields.append((start, storage.scratchCount, startColumn))
            guard i < n else { return nil }
            i += 1
            column += 1
        }
    }

    private mutating func readHeader(_ record: UnsafeBufferPointer<UInt8>, line: Int) {
        storage.clearScratch()
        var fields: [(start: Int, end: Int, column: Int)] = []
        if let problem = fieldsOf(record, line: line, into: &fields) {
            problems.append(problem)
            return
        }
        let scratch = storage.scratch.bytes
        let words = fields.map { String(decoding: UnsafeBufferPointer(rebasing: scratch[$0.start..<$0.end]), as: UTF8.self) }
        var map = Array(repeating: -1, count: TraceField.count)
        for field in TraceField.allCases {
            guard let at = words.firstIndex(of: names[field.ordinal]) else { continue }
            map[field.ordinal] = at
            if let again = words[(at + 1)...].firstIndex(of: names[field.ordinal]) {
                problems.append(error(line: line, column: fields[again].column, .duplicateField(name: names[field.ordinal])))
            }
        }
        header = map
        fieldOfColumn = Array(repeating: -1, count: (map.max() ?? -1) + 1)
        for (f, column) in map.enumerated() where column >= 0 { fieldOfColumn[column] = f }
        if fieldOfColumn.isEmpty { fieldOfColumn = [-1] }
        for field in TraceField.allCases where field.isRequired && map[field.ordinal] < 0 {
            problems.append(error(line: line, column: 1, .missingColumn(field, name: names[field.ordinal], header: words)))
        }
    }

    func error(line: Int, column: Int, _ problem: TraceProblem) -> TraceError {
        TraceError(file: file, location: SourceLocation(line: line, column: column), problem: problem)
    }
}

extension CSVTraceReader: DeferringRowReader {
    var deferredRecord: UnsafeBufferPointer<UInt8>? { unsplit }

    var completer: RowCompleter? { header.map { .csv(header: $0, fieldOfColumn: fieldOfColumn) } }
}

extension TraceFormat {
    /// CSV: a header row naming the columns (`CSVTraceReader`).
    public static let csv = TraceFormat(
        name: "csv", title: "CSV", extensions: [".csv"], splitsAtLineBreaks: false,
        sniffs: { firstByte($0) != UInt8(ascii: "{") },
        reader: { CSVTraceReader(layout: $0, file: $1) })
}
