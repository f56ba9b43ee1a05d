import Foundation
import Testing
import PopsimTestSupport

/// A field named twice — two header columns of a CSV, two keys of a JSON Lines row — is an
/// error in both formats, at the second name (issue 66, cause 14): one format took the first and
/// the other the last, so the same rows were two users in one and one in the other.
@Suite("traces: a field named twice")
struct DuplicateFieldTests {
    @Test func aFieldNamedTwiceIsAnErrorInEveryFormat() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("c.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}}"#.write(toFile: catalog, atomically: true, encoding: .utf8)
        let csv = dir.appendingPathComponent("t.csv").path, jsonl = dir.appendingPathComponent("t.jsonl").path
        try "user,time,action,popup,user\na,0,enqueue,a,b\n".write(toFile: csv, atomically: true, encoding: .utf8)
        try #"{"user": "a", "time": 0, "action": "enqueue", "popup": "a", "user": "b"}"# .write(toFile: jsonl, atomically: true, encoding: .utf8)
        for (trace, at) in [(csv, "1:24"), (jsonl, "1:61")] {
            let r = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg"])
            #expect(r.status == 2 && r.stdout == "", "\(trace): \(r.stdout)")
            #expect(r.stderr == "\(trace):\(at): the field \"user\" is named twice: name it once\n", "\(r.stderr)")
        }
    }
}
