import Testing
@testable import PopsimCore
import PopsimReports
import PopsimTestSupport

/// The readers give the same rows, users and errors however the bytes are cut into chunks (a
/// chunk boundary inside a word, a quoted field, a CRLF, a multi-byte character), and however
/// many workers share the users.
@Suite struct TraceReaderChunkTests {
    static let trace = "user,time,action,popup,value\r\nu1,0,enqueue,a,\nü,5,set,,screen=caf\u{e9}\nu2,7,enqueue,\"b\",\"x\ny\"\n"
        + "u1,9,dismissed,a,ok\nu3,1,enqueue,nope,\nu1,12,shown,a,\nu2,3,enqueue,a,\nu4,20,push,,\"a,b\"\n"

    static let catalog: Scenario? = {
        guard case .success(let c) = ScenarioLoader.load(Array(#"{"popsim": 1, "strategy": "fg", "state": {"screen": "home"}, "popups": {"a": {}, "b": {}}}"#.utf8),
                                                         file: "c.json", catalog: StrategyRegistry.catalog) else { return nil }
        return c
    }()

    /// What every worker's gatherer found, reading `bytes` in chunks of `chunk`.
    static func read(_ bytes: [UInt8], chunk: Int, workers: Int = 1, format: TraceFormat = .csv, quotedLineBreaks: Int? = 1)
        -> (rows: Int, users: [String], entries: Int, errors: [String]) {
        guard let catalog else { return (0, [], 0, ["catalog"]) }
        var layout = TraceLayout(format: format)
        layout.quotedLineBreaks = quotedLineBreaks
        let decoder = TraceRowDecoder(file: "t.csv", layout: layout, catalog: catalog)
        var gatherers = (0..<workers).map { UserGatherer(decoder: decoder, worker: $0, workers: workers, shard: nil, promisedGrouped: false, maxErrors: 100) }
        var readers = (0..<workers).map { _ in format.makeReader(layout, file: "t.csv") }
        func pull(_ w: Int) {
            while let p = readers[w].nextWhole() {
                switch p {
                case .row(let row): gatherers[w].take(row)
                case .problem(let e): gatherers[w].take(e)
                }
            }
        }
        bytes.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let j = min(all.count, i + chunk)
                for w in 0..<workers {
                    readers[w].feed(UnsafeBufferPointer(rebasing: all[i..<j]))
                    pull(w)
                }
                i = j
            }
        }
        for w in 0..<workers {
            readers[w].finish()
            pull(w)
        }
        var users: [(Int, String)] = []
        var entries = 0
        var rows: [TimedEntry] = []
        for g in gatherers {
            for i in 0..<g.heldUsers where !g.user(i).bad {
                users.append((g.user(i).firstRow, g.user(i).id))
                g.rows(of: i, into: &rows)
                entries += rows.count
            }
        }
        let errors = TraceError.inFileOrder(gatherers.flatMap(\.errors), cap: 100).map(TraceErrorText.line)
        return (readers[0].rowCount, users.sorted { $0.0 < $1.0 }.map(\.1), entries, errors)
    }

    @Test func everyCutGivesTheSameRows() {
        let bytes = Array(Self.trace.utf8)
        let whole = Self.read(bytes, chunk: bytes.count)
        #expect(whole.rows == 8)
        #expect(whole.users == ["u1", "ü", "u4"]) // u2 and u3 have a bad row
        #expect(whole.errors == ["t.csv:7:14: unknown popup \"nope\"", "t.csv:9:4: expected a time no earlier than user \"u2\"\'s rows before it, got 3"])
        for chunk in 1...40 {
            for workers in [1, 2, 3] {
                let cut = Self.read(bytes, chunk: chunk, workers: workers)
                #expect(cut.rows == whole.rows && cut.users == whole.users && cut.entries == whole.entries && cut.errors == whole.errors,
                        "chunks of \(chunk), \(workers) workers")
            }
        }
    }

    /// Random traces of every kind of line (plain rows, CRLF, blank and blank-looking lines,
    /// quoted fields with and without line breaks, non-ASCII bytes, a leading space, short rows,
    /// bad values): the same rows, users and errors read whole — most records then take the
    /// reader's short way for a plain record — and cut into chunks of every size up to 64,
    /// where they mostly cannot.
    @Test func randomTracesReadTheSameWhateverTheChunks() {
        var state: UInt64 = 11
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let lines = ["u1,#,enqueue,a,", "u2,#,enqueue,b,\r", "u1,#,set,,screen=cart", "", "\r", "   ", " u3,#,enqueue,a,",
                     "u\u{e9},#,enqueue,a,", "u2,#,dismissed,b,\"o,k\"", "u4,#,enqueue,\"a\",\"x\ny\"", "u1,#",
                     "u5,#,enqueue,nope,", "u6,x#,enqueue,a,", "u7,#,shown,a,", "u1,#,clear,,", "\t", "u8,#,enqueue,a,\"\""]
        for round in 0..<12 {
            var text = "user,time,action,popup,value\n"
            var t = 0
            for _ in 0..<(20 + next(60)) {
                t += next(3)
                text += String(lines[next(lines.count)].flatMap { $0 == "#" ? Array(String(t)) : [$0] }) + "\n"
            }
            if round % 3 == 0 { text.removeLast() } // no final line break
            let bytes = Array(text.utf8)
            let whole = Self.read(bytes, chunk: bytes.count)
            #expect(whole.rows > 0)
            for chunk in 1...64 {
                let cut = Self.read(bytes, chunk: chunk, workers: 1 + chunk % 3)
                #expect(cut.rows == whole.rows && cut.users == whole.users && cut.entries == whole.entries && cut.errors == whole.errors,
                        "round \(round), chunks of \(chunk)")
            }
        }
    }

    /// A quote left open costs its own line (a bad row) and nothing after it, wherever the
    /// chunks cut, even when the line it opens on was carried from an earlier chunk; a field of
    /// one line break is still a field; `--multiline-fields` (no limit) reads on to the end.
    @Test func aQuoteLeftOpenCostsItsOwnLine() {
        let trace = "user,time,action,popup,value\nu1,0,enqueue,a,\nu2,1,enqueue,\"a,\nu3,2,enqueue,b,\nu1,3,enqueue,b,\"two\nlines\"\n"
            + "u4,4,enqueue,a,\nu5,5,enqueue,\"b,\nu6,6,enqueue,a,\n"
        let bytes = Array(trace.utf8)
        let whole = Self.read(bytes, chunk: bytes.count)
        let spans = "a quoted field runs on past a line break and the next: its quote is taken as left open, this line as a bad row, "
            + "and the next line read as a row (a trace whose fields hold more line breaks: --multiline-fields)"
        // Line 3 opens a quote; line 4 (u3) is read as a row; u1's value spans lines 5-6; line 8 opens another, line 9 is read.
        #expect(whole.errors == ["t.csv:3:1: " + spans, "t.csv:8:1: " + spans])
        #expect(whole.users == ["u1", "u3", "u4", "u6"])
        #expect(whole.rows == 5 && whole.entries == 5)
        for chunk in 1...60 {
            for workers in [1, 2] {
                let cut = Self.read(bytes, chunk: chunk, workers: workers)
                #expect(cut.rows == whole.rows && cut.users == whole.users && cut.entries == whole.entries && cut.errors == whole.errors,
                        "chunks of \(chunk), \(workers) workers")
            }
        }
        let open = Array("user,time,action,popup,value\nu1,0,enqueue,a,\nu2,1,enqueue,\"a,\nu3,2,enqueue,b,\nu4,3,enqueue,a,\n".utf8)
        let limited = Self.read(open, chunk: 7)
        #expect(limited.errors == ["t.csv:3:1: " + spans] && limited.users == ["u1", "u3", "u4"])
        let any = Self.read(open, chunk: 7, quotedLineBreaks: nil)
        #expect(any.errors == ["t.csv:3:1: a quoted field is not closed before the end of the trace"] && any.users == ["u1"])
    }

    /// A compressed file is said at line 1 by both formats however its first bytes are cut, and
    /// nothing of it is read as rows.
    @Test func aCompressedTraceIsSaidAtLineOne() {
        for (magic, name) in [([0x1F, 0x8B, 0x08, 0x00], "gzip"), (Array("BZh91AY&".utf8), "bzip2"), ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz"),
                              ([0x28, 0xB5, 0x2F, 0xFD], "zstd"), ([0x50, 0x4B, 0x03, 0x04], "zip")] as [([UInt8], String)] {
            let bytes = magic + Array("abc,\"def\n\n\nuser,time,action\nu1,0,enqueue,a\n".utf8)
            for format in TraceFormats.all {
                for chunk in [1, 2, 3, 5, 8, 64] {
                    let r = Self.read(bytes, chunk: chunk, format: format)
                    #expect(r.errors == ["t.csv:1:1: a \(name)-compressed file: popsim reads a trace as text (CSV or JSON Lines); "
                                         + "decompress it on the way in: \(TraceCompression(rawValue: name)?.decompressor ?? "") t.csv | popsim replay - --catalog …"],
                            "\(name), \(format.name), chunks of \(chunk)")
                    #expect(r.rows == 0 && r.users.isEmpty)
                }
            }
        }
        // A CSV whose first column starts with "BZh" is a CSV.
        #expect(Array("BZhome,1\n".utf8).withUnsafeBufferPointer { TraceCompression.of($0) } == nil)
    }
    /// A plain record's fields (`CSVTraceReader.split`, every comma found eight bytes at a time)
    /// are what splitting at each comma one byte at a time gives: on random records of commas,
    /// bytes one away from a comma (`-`, `+`: a borrow between bytes would take them for commas)
    /// and bytes of any value, for every length around a word, and headers that map fewer,
    /// more, or other columns than the record has.
    @Test func fieldsAreSplitAtEveryCommaAndNoOtherByte() {
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet: [UInt8] = [44, 44, 44, 45, 43, 0x2C ^ 0x80, 0, 1, 0xFF, 0x7F, 97, 48, 57]
        let headers: [[Int]] = [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [0, 2, 4, -1, -1], [1, -1, 0, -1, 2], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]
        for header in headers {
            let fieldOfColumn: [Int] = (0...(header.max() ?? 0)).map { c in header.firstIndex(of: c) ?? -1 }
            for length in 1..<40 {
                for _ in 0..<40 {
                    let record = (0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
                    // One byte at a time: the column's field runs to the next comma; the header's
                    // last column stops there, and columns past the record's last stand after it.
                    var expected = Array(repeating: (start: -1, count: 0, column: 0), count: header.count)
                    var column = 0, start = 0, k = 0
                    while true {
                        while k < record.count, record[k] != 44 { k += 1 }
                        if fieldOfColumn[column] >= 0 { expected[fieldOfColumn[column]] = (start, k - start, start + 1) }
                        guard k < record.count, column < fieldOfColumn.count - 1 else { break }
                        k += 1
                        column += 1
                        start = k
                    }
                    for f in header.indices where header[f] > column { expected[f] = (-1, 0, start + 1) }
                    let slots = UnsafeMutablePointer<TraceRow.Slot>.allocate(capacity: header.count)
                    defer { slots.deallocate() }
                    slots.initialize(repeating: TraceRow.Slot(base: nil, count: -7, column: -7), count: header.count)
                    record.withUnsafeBufferPointer { bytes in
                        CSVTraceReader.split(bytes, header: header, fieldOfColumn: fieldOfColumn, slots: slots)
                        for f in header.indices {
                            let got = slots[f]
                            // A field the header has no column for is left as it was.
                            guard header[f] >= 0 else {
                                #expect(got.count == -7, "record \(record), header \(header), field \(f)")
                                continue
                            }
                            var start = -1
                            if let at = got.base, let base = bytes.baseAddress { start = at - base }
                            #expect(start == expected[f].start && got.count == expected[f].count && got.column == expected[f].column,
                                    "record \(record), header \(header), field \(f)")
                        }
                    }
                }
            }
        }
    }
}
