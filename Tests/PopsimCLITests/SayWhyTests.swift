import Foundation
import Testing
import PopsimTestSupport

/// Issue 25, "Say why": the summary's `end` is the run's real end; a popup held back by a rule
/// says so in the pending list, the JSON and lint; a `wait` property on a dropped popup says its
/// pass is vacuous.
@Suite("say why")
struct SayWhyTests {
    @Test func theEndIsTheRunsRealEnd() throws {
        let scenario = #"""
            {"popsim": 1, "strategy": "jc-fifo", "until": 60000, "state": {"screen": "home"},
             "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 30000, "set": {"screen": "shop"}}, {"at": 70000, "enqueue": "b"}]}
            """#
        // Cut by until: the end is until, not the last line (1400 ms).
        let cut = try runPopsim(["run", "-"], stdin: scenario)
        #expect(cut.stdout.contains("summary: 1 shown, 0 dropped, 0 pending, 0 warnings, end 60000 ms\n"), "\(cut.stdout)")
        // Not cut: the last happening (a set that writes no line), not the last line.
        let whole = try runPopsim(["run", "-"], stdin: scenario.replacingOccurrences(of: #""until": 60000, "#, with: "")
            .replacingOccurrences(of: #", {"at": 70000, "enqueue": "b"}"#, with: ""))
        #expect(whole.stdout.contains("summary: 1 shown, 0 dropped, 0 pending, 0 warnings, end 30000 ms\n"), "\(whole.stdout)")
    }

    @Test func aPopupHeldBackSaysByWhat() throws {
        let suspended = #"""
            {"popsim": 1, "name": "held", "strategy": "fg", "state": {"screen": "home"},
             "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 0, "suspend": true}, {"at": 10, "enqueue": "b"}]}
            """#
        let run = try runPopsim(["run", "-"], stdin: suspended)
        #expect(run.stdout.contains("\npending: b (held back by suspend)\n"))
        let json = try runPopsim(["run", "-", "--format", "json"], stdin: suspended)
        #expect(json.stdout.contains(#""pendingPopups": ["b"], "heldBack": {"b": "suspended"}, "onScreen": []"#))
        let lint = try runPopsim(["lint", "-"], stdin: suspended)
        #expect(lint.stdout == "-: end: held back: 'b' is still queued, held back by suspend\n0 hazards, 1 note\n")

        let paced = #"""
            {"popsim": 1, "strategy": "policy", "options": {"cooldownMs": 5000}, "until": 3000,
             "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}}, "events": [{"at": 0, "enqueue": ["a", "b"]}]}
            """#
        #expect(try runPopsim(["run", "-"], stdin: paced).stdout.contains("\npending: b (held back by the cooldown)\n"))
        let rate = paced.replacingOccurrences(of: #""cooldownMs": 5000"#, with: #""rateCount": 1, "rateWindowMs": 10000"#)
        #expect(try runPopsim(["run", "-"], stdin: rate).stdout.contains("\npending: b (held back by the rate limit)\n"))
        let gap = paced.replacingOccurrences(of: #""cooldownMs": 5000"#, with: #""minGapMs": 10000"#)
        #expect(try runPopsim(["run", "-"], stdin: gap).stdout.contains("\npending: b (held back by the minimum gap)\n"))

        // A condition that held once and no longer does (one that never held is lint's hazard).
        let condition = #"""
            {"popsim": 1, "strategy": "fg", "state": {"screen": "home"},
             "popups": {"a": {"duration": 1000}, "c": {"when": "screen == 'home'"}},
             "events": [{"at": 0, "enqueue": ["a", "c"]}, {"at": 10, "set": {"screen": "shop"}}]}
            """#
        #expect(try runPopsim(["run", "-"], stdin: condition).stdout.contains("\npending: c (held back by its condition)\n"))
        #expect(try runPopsim(["lint", "-"], stdin: condition).stdout
                == "-: end: held back: 'c' is still queued, held back by its condition (screen == 'home')\n0 hazards, 1 note\n")
        // Nothing but the busy screen: no reason.
        let busy = #"{"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}, "b": {}}, "events": [{"at": 0, "enqueue": ["a", "b"]}]}"#
        #expect(try runPopsim(["run", "-"], stdin: busy).stdout.contains("\npending: b\n"))
    }

    @Test func aWaitOnADroppedPopupSaysSo() throws {
        let scenario = #"""
            {"popsim": 1, "name": "dropped", "strategy": "notistack", "options": {"dedupe": "on", "slots": 1},
             "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 0, "enqueue": "a"}, {"at": 10, "enqueue": "b"}, {"at": 20, "remove": "b"}],
             "expect": ["wait a <= 100", "wait b <= 5000"]}
            """#
        let run = try runPopsim(["run", "-"], stdin: scenario)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("""
            expect: 2 hold, 0 fail
              holds  wait a <= 100 (a was also dropped at 0 ms; a dropped request's wait is not judged)
              holds  wait b <= 5000 (b was dropped at 20 ms and never shown; a dropped request's wait is not judged)

            """))
        let json = try runPopsim(["run", "-", "--format", "json"], stdin: scenario)
        #expect(json.stdout.contains(#"{"property": "wait b <= 5000", "holds": true, "note": "b was dropped at 20 ms and never shown; a dropped request's wait is not judged"}"#))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(scenario.utf8).write(to: dir.appendingPathComponent("d.json"))
        _ = try runPopsim(["check", "d.json", "--update"], in: dir)
        let check = try runPopsim(["check", "d.json"], in: dir)
        #expect(check.status == 0)
        #expect(check.stdout == """
            PASS: d.json [notistack]
              holds  wait a <= 100 (a was also dropped at 0 ms; a dropped request's wait is not judged)
              holds  wait b <= 5000 (b was dropped at 20 ms and never shown; a dropped request's wait is not judged)
            1 passed, 0 failed

            """)
    }
}
