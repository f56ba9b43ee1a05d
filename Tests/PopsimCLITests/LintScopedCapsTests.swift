import Foundation
import Testing
import PopsimTestSupport

/// A cap scoped to `key:` or `level:` reads the popups' keys or levels: lint and run never call
/// them ignored while they decide the run (issue 66, cause 13).
@Suite("lint: scoped caps")
struct LintScopedCapsTests {
    @Test func aScopedCapsKeyIsNotIgnored() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.json").path
        try #"""
            {"popsim": 1, "strategy": "policy", "options": {"caps": "key:promo:1/24h"},
             "popups": {"a": {"duration": 1000, "key": "promo"}, "b": {"duration": 1000, "key": "promo"}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 5000, "enqueue": "b"}]}
            """#.write(toFile: scenario, atomically: true, encoding: .utf8)
        let lint = popsimInProcess(["lint", scenario])
        #expect(lint.stdout + lint.stderr == "0 hazards, 0 notes\n", "\(lint.stdout)\(lint.stderr)")
        let run = popsimInProcess(["run", scenario])
        #expect(run.status == 0 && run.stdout.contains("5000  drop     b  quota\n"), "\(run.stdout)")
        #expect(!run.stderr.contains("ignored"), "\(run.stderr)")
        // Without the cap, the key is ignored by policy and lint says so.
        try String(contentsOfFile: scenario, encoding: .utf8).replacingOccurrences(of: #""caps": "key:promo:1/24h""#, with: #""caps": """#)
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let plain = popsimInProcess(["lint", scenario])
        #expect((plain.stdout + plain.stderr).contains(".key: ignored by policy"), "\(plain.stdout)\(plain.stderr)")
    }
}
