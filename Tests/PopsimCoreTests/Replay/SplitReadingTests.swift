import Testing
@testable import PopsimCore
import PopsimReports

/// A chunk's reading split among workers (`SplitReading`) hands out what one reader reading it all
/// hands out: the same rows (numbers, lines, every field and its column) and the same problems at
/// the same places, however the chunks are cut, however many pieces, and however few rows an
/// index may hold — when a cut falls inside a quoted field, a CRLF or a multi-byte character, and
/// when a piece has more rows than its index holds.
@Suite struct SplitReadingTests {
    static let csv = "user,time,action,popup,value\r\nu1,0,enqueue,a,\nü,5,set,,screen=caf\u{e9}\nu2,7,enqueue,\"b\",\"x\ny\"\n"
        + "u1,9,dismissed,a,ok\n\nu3,1,enqueue,nope,\nu1,12,shown,a,\nu2,3,enqueue,a,\nu4,20,push,,\"a,b\"\nu5,2,enqueue,\"a,\n"
        + "u6,6,enqueue,a,\nshort\nu7,8,enqueue,b,\"two\nlines\"\r\nu8,\"9\"x,enqueue,a,\nu9,10,enqueue,a,"
    static let jsonl = "{\"user\":\"u1\",\"time\":0,\"action\":\"enqueue\",\"popup\":\"a\"}\n\n{\"user\":\"ü\",\"time\":\"5\"}\r\nnot json\n"
        + "[1]\n{\"user\":\"u2\",\"time\":7,\"action\":\"set\",\"value\":\"screen=x\\ny\"}\n{\"user\":{\"a\":1}}\n{\"user\":\"u3\",\"time\":9}"

    /// Each pull as text: a row's number, line and fields with their columns, or a problem.
    static func describe(_ pull: TracePull) -> String {
        switch pull {
        case .problem(let e): return TraceErrorText.line(e)
        case .row(let row):
            let fields = TraceField.allCases.map { f in
                "\(row[f].map { String(decoding: $0, as: UTF8.self) } ?? "-")@\(row.location(f).column)"
            }
            return "row \(row.row) line \(row.line) hash \(row.userHash.map { $0 == UserTable.hash(row[.user]!) } ?? true): " + fields.joined(separator: " ")
        }
    }

    static func layout(_ format: TraceFormat) -> TraceLayout {
        var layout = TraceLayout(format: format)
        layout.quotedLineBreaks = 1
        return layout
    }

    /// One reader, fed the whole trace at once.
    static func alone(_ bytes: [UInt8], _ format: TraceFormat) -> (pulls: [String], rows: Int) {
        var reader = format.makeReader(layout(format), file: "t")
        var pulls: [String] = []
        bytes.withUnsafeBufferPointer { all in
            reader.feed(all)
            while let p = reader.nextWhole() { pulls.append(describe(p)) }
        }
        reader.finish()
        while let p = reader.nextWhole() { pulls.append(describe(p)) }
        return (pulls, reader.rowCount)
    }

    /// A split reading of `ways`, fed chunks of `chunk` bytes.
    static func split(_ bytes: [UInt8], _ format: TraceFormat, chunk: Int, ways: Int, rowsPerPiece: Int?) -> (pulls: [String], rows: Int) {
        let reading = SplitReading(reader: format.makeReader(layout(format), file: "t"), ways: ways, rowsPerPiece: rowsPerPiece)
        var rows = IndexedRows()
        var pulls: [String] = []
        func take(_ batch: [IndexedRows.Part]) {
            rows.start(batch)
            while let p = rows.next() {
                if case .row = p { rows.completeRow() }
                pulls.append(describe(p))
            }
        }
        func drain(_ first: [IndexedRows.Part]?) {
            var next = first ?? reading.more()
            while let batch = next {
                take(batch)
                next = reading.more()
            }
        }
        bytes.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let piece = UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + chunk)])
                for w in 0..<reading.begin(piece) { reading.index(w) }
                drain(reading.settle())
                i += chunk
            }
        }
        reading.finish()
        drain(nil)
        return (pulls, reading.rows)
    }

    @Test func splitReadingHandsOutWhatOneReaderDoes() {
        for (text, format) in [(Self.csv, TraceFormat.csv), (Self.jsonl, .jsonLines)] {
            let bytes = Array(text.utf8)
            let whole = Self.alone(bytes, format)
            #expect(whole.pulls.count > 6, "\(format.name): \(whole.pulls)")
            for chunk in [1, 2, 3, 5, 8, 13, 40, 64, 100, bytes.count] {
                for ways in [1, 2, 3, 5] {
                    for limit in [nil, 1, 2] as [Int?] {
                        let cut = Self.split(bytes, format, chunk: chunk, ways: ways, rowsPerPiece: limit)
                        #expect(cut.pulls == whole.pulls && cut.rows == whole.rows,
                                "\(format.name): chunks of \(chunk), \(ways) ways, \(limit.map(String.init) ?? "no") limit")
                    }
                }
            }
        }
    }

    /// The rows of a piece that was cut inside a quoted field are still the quoted field's, and a
    /// piece's rows keep their numbers after a batch of another piece.
    @Test func aCutInsideAQuotedFieldIsReadAgain() {
        let trace = "user,time,action,popup,value\n" + (0..<50).map { "u\($0),\($0),set,,\"screen=\nhome\"\n" }.joined()
        let bytes = Array(trace.utf8)
        let whole = Self.alone(bytes, .csv)
        #expect(whole.rows == 50 && whole.pulls.last?.hasPrefix("row 50 line 100 ") == true)
        let cut = Self.split(bytes, .csv, chunk: bytes.count, ways: 4, rowsPerPiece: nil)
        #expect(cut.pulls == whole.pulls && cut.rows == 50)
    }

    @Test func anEmptyTraceIsSaidOnce() {
        for format in TraceFormats.all {
            let whole = Self.alone([], format)
            let cut = Self.split([], format, chunk: 8, ways: 2, rowsPerPiece: nil)
            #expect(cut.pulls == whole.pulls && cut.rows == 0, "\(format.name)")
        }
        #expect(Self.alone([], .csv).pulls == ["t:1:1: the trace is empty: expected a header row, like user,time,action,popup,value"])
    }

    @Test func cutsFallAfterLineBreaks() {
        let bytes = Array("ab\ncd\nef\ngh\n".utf8)
        #expect(bytes.withUnsafeBufferPointer { SplitReading.cuts($0, ways: 3) } == [6, 9, 12])
        #expect(bytes.withUnsafeBufferPointer { SplitReading.cuts($0, ways: 1) } == [12])
        #expect(Array("abcdef".utf8).withUnsafeBufferPointer { SplitReading.cuts($0, ways: 2) } == [6, 6])
    }
}
