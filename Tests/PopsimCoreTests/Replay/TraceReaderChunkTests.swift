import Testing
@testable import PopsimCore
import PopsimTestSupport

/// The reader gives the same rows, users and errors however the bytes are cut into chunks (a
/// chunk boundary inside a word, a quoted field, a CRLF, a multi-byte character).
@Suite struct TraceReaderChunkTests {
    static let trace = "user,time,action,popup,value\r\nu1,0,enqueue,a,\nü,5,set,,screen=caf\u{e9}\nu2,7,enqueue,\"b\",\"x\ny\"\n"
        + "u1,9,dismissed,a,ok\nu3,1,enqueue,nope,\nu1,12,shown,a,\nu2,3,enqueue,a,\nu4,20,push,,\"a,b\"\n"

    static func read(_ bytes: [UInt8], chunk: Int) -> (rows: Int, users: [String], entries: Int, errors: [String]) {
        guard case .success(let catalog) = ScenarioLoader.load(Array(#"{"popsim": 1, "strategy": "fg", "state": {"screen": "home"}, "popups": {"a": {}, "b": {}}}"#.utf8),
                                                               file: "c.json", catalog: StrategyRegistry.catalog) else { return (0, [], 0, ["catalog"]) }
        let layout = TraceLayout(format: .csv)
        var collector = TraceCollector(decoder: TraceDecoder(file: "t.csv", layout: layout, catalog: catalog), shard: nil, grouped: false,
                                       maxErrors: 100)
        var reader = TraceReader(file: "t.csv", layout: layout)
        bytes.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let j = min(all.count, i + chunk)
                reader.feed(UnsafeBufferPointer(rebasing: all[i..<j]), into: &collector)
                i = j
            }
        }
        reader.finish(into: &collector)
        let users = collector.ready(all: true)
        return (collector.rows, users.map(\.id), users.reduce(0) { $0 + $1.entries.count }, collector.errors.map(\.line))
    }

    @Test func everyCutGivesTheSameRows() {
        let bytes = Array(Self.trace.utf8)
        let whole = Self.read(bytes, chunk: bytes.count)
        #expect(whole.rows == 8)
        #expect(whole.users == ["u1", "ü", "u4"]) // u2 and u3 have a bad row
        #expect(whole.errors == ["t.csv:7:14: unknown popup \"nope\"", "t.csv:9:1: expected a time no earlier than user \"u2\"\'s rows before it, got 3"])
        for chunk in 1...40 {
            let cut = Self.read(bytes, chunk: chunk)
            #expect(cut.rows == whole.rows && cut.users == whole.users && cut.entries == whole.entries && cut.errors == whole.errors,
                    "chunks of \\(chunk)")
        }
    }
}
