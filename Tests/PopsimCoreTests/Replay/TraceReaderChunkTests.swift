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
    static func read(_ bytes: [UInt8], chunk: Int, workers: Int = 1, format: TraceFormat = .csv)
        -> (rows: Int, users: [String], entries: Int, errors: [String]) {
        guard let catalog else { return (0, [], 0, ["catalog"]) }
        let layout = TraceLayout(format: format)
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
        #expect(whole.errors == ["t.csv:7:14: unknown popup \"nope\"", "t.csv:9:1: expected a time no earlier than user \"u2\"\'s rows before it, got 3"])
        for chunk in 1...40 {
            for workers in [1, 2, 3] {
                let cut = Self.read(bytes, chunk: chunk, workers: workers)
                #expect(cut.rows == whole.rows && cut.users == whole.users && cut.entries == whole.entries && cut.errors == whole.errors,
                        "chunks of \(chunk), \(workers) workers")
            }
        }
    }
}
