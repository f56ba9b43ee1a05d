import Foundation
import Testing
import PopsimTestSupport

/// Issue 42, CI ergonomics: a timeline has one name in every report, a pass judged on properties
/// alone says so, a property may be declared known to fail under a strategy (XFAIL) and the check
/// fails when it holds there after all (XPASS), and a failing check ends with the command that
/// accepts the change. Each runs the real binary in a folder of its own.
@Suite("check in CI: one label, properties only, known failures, the command that accepts")
struct CheckErgonomicsTests: FolderFixture {
    /// Two popups enqueued together under jc-fifo (first in, first shown): `a before b` holds.
    static func scenario(expect: String) -> String {
        #"""
        {"popsim": 1, "name": "two", "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
         "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}},
         "events": [{"at": 0, "enqueue": ["a", "b"]}],
         "expect": \#(expect)}
        """#
    }

    @Test func aKnownFailureIsXFAILAndAStaleOneFailsAsXPASS() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write("s.json", Self.scenario(expect: #"[{"property": "b before a", "knownToFail": ["jc-fifo"]}, "visible <= 1"]"#), in: dir)
        let known = try runPopsim(["check", "s.json", "--junit", "j.xml"], in: dir)
        #expect(known.status == 0)
        #expect(known.stdout == "XFAIL: s.json [jc-fifo]: property 'b before a' fails, as its knownToFail says\n0 passed, 0 failed, 1 xfailed\n")
        #expect(try read("j.xml", in: dir).contains(#"<testcase classname="s.json" name="jc-fifo" time="0."#))
        #expect(try read("j.xml", in: dir).contains(#"<skipped message="xfail: property 'b before a' fails, as its knownToFail says"/>"#))
        let json = try runPopsim(["check", "s.json", "--format", "json"], in: dir)
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"{"popsim": 1, "passed": 0, "failed": 0, "xfailed": 1, "skipped": 0, "results": ["#))
        #expect(json.stdout.contains(#""label": "jc-fifo", "strategy": "jc-fifo", "golden": "s.jc-fifo.timeline", "verdict": "xfail", "knownFailures": [{"property": "b before a", "holds": false"#))

        // Under a strategy the note does not name, the same property is an ordinary failure.
        let other = try runPopsim(["check", "s.json", "--strategy", "android-toast"], in: dir)
        #expect(other.status == 1)
        #expect(other.stdout.hasPrefix("FAIL: s.json [android-toast]: property 'b before a' fails\n"))

        // The note goes stale: the property holds where it is said to fail. XPASS fails the check.
        try write("s.json", Self.scenario(expect: #"["visible <= 1", {"property": "a before b", "knownToFail": ["jc-fifo"]}]"#), in: dir)
        let stale = try runPopsim(["check", "s.json", "--format", "github"], in: dir)
        #expect(stale.status == 1)
        let phrase = "property 'a before b' holds, though its knownToFail names jc-fifo (XPASS): take jc-fifo out of it"
        // The annotation stands at the property's line in `expect`.
        #expect(stale.stdout == "FAIL: s.json [jc-fifo]: \(phrase)\n::error file=s.json,line=4,title=s.json [jc-fifo]::\(phrase)\n0 passed, 1 failed\n")
        let staleJSON = try runPopsim(["check", "s.json", "--format", "json"], in: dir)
        #expect(staleJSON.stdout.contains(#""verdict": "xpass", "advice": "\#(phrase)", "unexpectedPasses": [{"property": "a before b", "holds": true"#))
    }

    @Test func knownToFailIsCheckedWhereItIsWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write("s.json", Self.scenario(expect: #"[{"property": "b before a", "knownToFail": ["jc-fifo", "jc-fifo"]}, {"property": "a before b", "knownToFial": []}, {"knownToFail": ["fg"]}, {"property": "a before b", "knownToFail": "fg"}]"#), in: dir)
        let run = try runPopsim(["run", "s.json"], in: dir)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            s.json:4:67: expect[0].knownToFail[1]: expected a label not listed before, got "jc-fifo"
            s.json:4:107: expect[1].knownToFial: unknown key "knownToFial"; did you mean 'knownToFail'?
            s.json:4:127: expect[2]: missing key 'property' (the property, such as "no overlap")
            s.json:4:194: expect[3].knownToFail: expected an array of golden labels or strategy names, such as ["swiftmessages"], got "fg"

            """)
        // Every other command judges the property as usual: `run` reports it broken.
        try write("s.json", Self.scenario(expect: #"[{"property": "b before a", "knownToFail": ["jc-fifo"]}]"#), in: dir)
        let judged = try runPopsim(["run", "s.json"], in: dir)
        #expect(judged.status == 1)
        #expect(judged.stdout.contains("fails  b before a: a shown at 0 ms, b at 1000 ms"), "\(judged.stdout)")
    }

    @Test func aPassWithoutAGoldenSaysPropertiesOnly() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write("s.json", Self.scenario(expect: #"["a before b"]"#), in: dir)
        let check = try runPopsim(["check", "s.json", "--format", "json", "--junit", "j.xml"], in: dir)
        #expect(check.status == 0)
        #expect(check.stdout.contains(#""verdict": "pass", "propertiesOnly": true}"#))
        #expect(try read("j.xml", in: dir).contains("<system-out>properties only: no golden</system-out>"))
        #expect(try runPopsim(["check", "s.json", "--update"], in: dir).stdout == "UPDATED: s.jc-fifo.timeline\nPASS: s.json [jc-fifo]\n1 passed, 0 failed\n")
        let golden = try runPopsim(["check", "s.json", "--format", "json"], in: dir)
        #expect(golden.stdout.contains(#""verdict": "pass"}"#))
    }

    /// A policy file's golden is `policy-<stem>` in the line, the diff header, JSON, JUnit and the
    /// annotation; a failing check ends with the command that records it again.
    @Test func oneLabelEverywhereAndTheCommandThatAccepts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write("burst.json", try String(contentsOf: packageRoot.appendingPathComponent("Scenarios/jc-burst-of-three.json"), encoding: .utf8), in: dir)
        try write("rules/team.json", try String(contentsOf: packageRoot.appendingPathComponent("Examples/policies/jc-fifo.json"), encoding: .utf8), in: dir)
        #expect(try runPopsim(["check", "burst.json", "--policy", "rules/team.json", "--update"], in: dir).status == 0)
        let policy = try read("rules/team.json", in: dir)
        try write("rules/team.json", policy.replacingOccurrences(of: #""showMs": 400"#, with: #""showMs": 500"#), in: dir)
        let text = try runPopsim(["check", "burst.json", "--policy", "rules/team.json", "--junit", "j.xml"], in: dir)
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("FAIL: burst.json [policy-team]\n--- expected: burst.policy-team.timeline\n+++ actual: burst.json [policy-team]\n"))
        #expect(text.stdout.hasSuffix("0 passed, 1 failed\nto accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):\n"
                                      + "  popsim check burst.json --strategy policy --policy rules/team.json --update\n"))
        #expect(try read("j.xml", in: dir).contains(#"<testcase classname="burst.json" name="policy-team" time="#))
        let json = try runPopsim(["check", "burst.json", "--policy", "rules/team.json", "--format", "json"], in: dir)
        #expect(json.stdout.contains(#"{"scenario": "burst.json", "label": "policy-team", "strategy": "policy", "golden": "burst.policy-team.timeline", "verdict": "differs""#))
        #expect(json.stdout.contains("+++ actual: burst.json [policy-team]"))
        // The command it prints accepts the change: the check passes after it.
        #expect(try runPopsim(["check", "burst.json", "--strategy", "policy", "--policy", "rules/team.json", "--update"], in: dir).status == 0)
        #expect(try runPopsim(["check", "burst.json", "--policy", "rules/team.json"], in: dir).status == 0)
    }
}
