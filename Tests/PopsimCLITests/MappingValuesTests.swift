import Foundation
import Testing
import PopsimTestSupport

/// A mapping is checked like a catalog (docs/replay.md): a fixed value given to a word that reads
/// none is an error, never dropped without a word (issue 66, cause 12).
@Suite("mappings: values")
struct MappingValuesTests {
    static let catalog = #"{"popsim": 1, "state": {"screen": "home"}, "popups": {"rate": {"duration": 1000}}}"#
    static let trace = "user,time,action,popup,value\nu,0,open,rate,\n"

    @Test func aValueGivenToAWordThatReadsNoneIsAnError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("c.json").path, trace = dir.appendingPathComponent("t.csv").path
        try Self.catalog.write(toFile: catalog, atomically: true, encoding: .utf8)
        try Self.trace.write(toFile: trace, atomically: true, encoding: .utf8)
        for (meaning, word, value) in [("enqueue rate", "enqueue", "rate"), ("clear zzz", "clear", "zzz"), ("shown now", "shown", "now")] {
            let r = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg", "--event", "open=\(meaning)"])
            #expect(r.status == 2)
            #expect(r.stderr == "popsim: replay: --event \"open=\(meaning)\": \"\(word)\" takes no value (got \"\(value)\")\n")
            let mapping = dir.appendingPathComponent("m.json").path
            try #"{"events": {"open": "\#(meaning)"}}"#.write(toFile: mapping, atomically: true, encoding: .utf8)
            let file = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg", "--mapping", mapping])
            #expect(file.status == 2)
            #expect(file.stderr == "\(mapping):1:21: events.open: expected \"\(word)\" alone (it takes no value), got \"\(meaning)\"\n", "\(file.stderr)")
        }
        // Words that read a value keep a fixed one.
        for meaning in ["enqueue", "set screen=cart", "replace home", "dismissed ok", "set screen"] {
            let r = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg", "--event", "open=\(meaning)"])
            #expect(r.status == 0 || !r.stderr.contains("takes no value"), "\(meaning): \(r.stderr)")
        }
    }
}
