import Testing
@testable import PopsimCore
import PopsimReports

/// A chunk's reading split among workers (`SplitReading`) hands each worker what one reader reading
/// it all hands out of that worker's rows: the same rows (numbers, lines, every field and its
/// column), and to worker 0 the same problems at the same places, however the chunks are cut,
/// however many pieces, and however few rows an index may hold — when a cut falls inside a quoted
/// field, a CRLF or a multi-byte character, and when a piece has more rows than its index holds.
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

    /// Whose a pull is among `workers`: a row its user's worker's (worker 0's without a user), a
    /// problem worker 0's.
    static func worker(_ pull: TracePull, among workers: Int) -> Int {
        guard case .row(let row) = pull, let user = row[.user], !user.isEmpty else { return 0 }
        return UserGatherer.worker(of: UserTable.hash(user), among: workers)
    }

    /// One reader, fed the whole trace at once: what each of `workers` workers is to be handed.
    static func alone(_ bytes: [UInt8], _ format: TraceFormat, workers: Int = 1) -> (pulls: [[String]], rows: Int) {
        var reader = format.makeReader(layout(format), file: "t")
        var pulls: [[String]] = Array(repeating: [], count: workers)
        bytes.withUnsafeBufferPointer { all in
            reader.feed(all)
            while let p = reader.nextWhole() { pulls[worker(p, among: workers)].append(describe(p)) }
        }
        reader.finish()
        while let p = reader.nextWhole() { pulls[worker(p, among: workers)].append(describe(p)) }
        return (pulls, reader.rowCount)
    }

    /// A split reading of `ways`, fed chunks of `chunk` bytes: what each worker is handed.
    /// `pipelined`: a chunk's batch is taken only once the next chunk is begun and indexed
    /// (`ReplayPass`), unless the rest of the chunk is read alone.
    static func split(_ bytes: [UInt8], _ format: TraceFormat, chunk: Int, ways: Int, rowsPerPiece: Int?,
                      pipelined: Bool = false) -> (pulls: [[String]], rows: Int) {
        let reading = SplitReading(reader: format.makeReader(layout(format), file: "t"), ways: ways, rowsPerPiece: rowsPerPiece)
        var rows = IndexedRows()
        var pulls: [[String]] = Array(repeating: [], count: ways)
        func take(_ batch: [IndexedRows.Part]) {
            for w in 0..<ways {
                rows.start(batch, worker: w)
                while let p = rows.next() {
                    if case .row = p { rows.completeRow() }
                    pulls[w].append(describe(p))
                }
            }
        }
        func drain(_ first: [IndexedRows.Part]?) {
            var next = first ?? reading.more()
            while let batch = next {
                take(batch)
                next = reading.more()
            }
        }
        var pending: [IndexedRows.Part]?
        bytes.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let piece = UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + chunk)])
                for w in 0..<reading.begin(piece) { reading.index(w) }
                if let batch = pending { take(batch) }
                pending = nil
                let batch = reading.settle()
                if pipelined && !reading.readsAlone { pending = batch } else { drain(batch) }
                i += chunk
            }
        }
        if let batch = pending { take(batch) }
        reading.finish()
        drain(nil)
        return (pulls, reading.rows)
    }

    @Test func splitReadingHandsOutWhatOneReaderDoes() {
        for (text, format) in [(Self.csv, TraceFormat.csv), (Self.jsonl, .jsonLines)] {
            let bytes = Array(text.utf8)
            #expect(Self.alone(bytes, format).pulls[0].count > 6, "\(format.name)")
            for ways in [1, 2, 3, 5] {
                let whole = Self.alone(bytes, format, workers: ways)
                #expect(whole.pulls.filter { !$0.isEmpty }.count > 1 || ways == 1, "\(format.name): rows for more than one worker")
                for chunk in [1, 2, 3, 5, 8, 13, 40, 64, 100, bytes.count] {
                    for limit in [nil, 1, 2] as [Int?] {
                        for pipelined in [false, true] {
                            let cut = Self.split(bytes, format, chunk: chunk, ways: ways, rowsPerPiece: limit, pipelined: pipelined)
                            #expect(cut.pulls == whole.pulls && cut.rows == whole.rows,
                                    "\(format.name): chunks of \(chunk), \(ways) ways, \(limit.map(String.init) ?? "no") limit, pipelined \(pipelined)")
                        }
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
        let whole = Self.alone(bytes, .csv, workers: 4)
        #expect(whole.rows == 50 && whole.pulls.flatMap { $0 }.contains { $0.hasPrefix("row 50 line 100 ") })
        for chunk in [bytes.count, 97] {
            let cut = Self.split(bytes, .csv, chunk: chunk, ways: 4, rowsPerPiece: nil, pipelined: true)
            #expect(cut.pulls == whole.pulls && cut.rows == 50, "chunks of \(chunk)")
        }
        let cut = Self.split(bytes, .csv, chunk: bytes.count, ways: 4, rowsPerPiece: nil)
        #expect(cut.pulls == whole.pulls && cut.rows == 50)
    }

    /// At each row a worker is handed, `upcoming` names the users of its rows `lookAhead` and half
    /// as many rows on in the piece (0 past its last): what the gatherer asks the cache for.
    @Test func upcomingNamesTheWorkersRowsAhead() {
        let trace = "user,time,action,popup,value\n" + (0..<300).map { "u\($0 % 37),\($0),set,,screen=home\n" }.joined()
        let bytes = Array(trace.utf8)
        let ways = 2, far = IndexedRows.lookAhead, near = far / 2
        let reading = SplitReading(reader: TraceFormat.csv.makeReader(Self.layout(.csv), file: "t"), ways: ways, rowsPerPiece: nil)
        var seen = 0
        bytes.withUnsafeBufferPointer { all in
            for w in 0..<reading.begin(all) { reading.index(w) }
            let batch = reading.settle()
            for w in 0..<ways {
                for part in batch {
                    var rows = IndexedRows()
                    rows.start([part], worker: w)
                    var hashes: [UInt64] = [], told: [(far: UInt64, near: UInt64)] = []
                    while case .row(let hash?, _)? = rows.step() {
                        hashes.append(hash)
                        told.append(rows.upcoming())
                    }
                    seen += hashes.count
                    #expect(hashes.count > far + 10, "worker \(w) has rows enough")
                    for (k, t) in told.enumerated() {
                        #expect(t.far == (k + far < hashes.count ? hashes[k + far] : 0), "worker \(w), row \(k): far")
                        #expect(t.near == (k + near < hashes.count ? hashes[k + near] : 0), "worker \(w), row \(k): near")
                    }
                }
            }
        }
        #expect(seen == 300)
    }

    @Test func anEmptyTraceIsSaidOnce() {
        for format in TraceFormats.all {
            let whole = Self.alone([], format, workers: 2)
            let cut = Self.split([], format, chunk: 8, ways: 2, rowsPerPiece: nil)
            #expect(cut.pulls == whole.pulls && cut.rows == 0, "\(format.name)")
        }
        #expect(Self.alone([], .csv).pulls == [["t:1:1: the trace is empty: expected a header row, like user,time,action,popup,value"]])
    }

    @Test func cutsFallAfterLineBreaks() {
        let bytes = Array("ab\ncd\nef\ngh\n".utf8)
        #expect(bytes.withUnsafeBufferPointer { SplitReading.cuts($0, ways: 3) } == [6, 9, 12])
        #expect(bytes.withUnsafeBufferPointer { SplitReading.cuts($0, ways: 1) } == [12])
        #expect(Array("abcdef".utf8).withUnsafeBufferPointer { SplitReading.cuts($0, ways: 2) } == [6, 6])
    }
}
