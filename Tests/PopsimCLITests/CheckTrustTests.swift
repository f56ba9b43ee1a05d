import Foundation
import Testing
import PopsimTestSupport

/// Issue 25, "CI you can trust": every hole through which `check` could pass while checking
/// nothing, each recorded, then broken, then caught. Every test runs the real binary in a
/// folder of its own, so the paths in the expected lines are the user's.
@Suite("check cannot go silently green")
struct CheckTrustTests: FolderFixture {
    /// A plug-in copied beside the test's scenarios, executable.
    func plugin(_ name: String, in dir: URL) throws {
        try copy("Examples/plugins/flow-manager.py", to: name, in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent(name).path)
    }

    static let withExpect = #"""
    {"popsim": 1, "name": "two", "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
     "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}},
     "events": [{"at": 0, "enqueue": ["a", "b"]}],
     "expect": ["a before b"]}
    """#

    @Test func updateRecordsTheGoldenOfAScenarioWithExpect() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write("s/two.json", Self.withExpect, in: dir)
        let update = try runPopsim(["check", "s/two.json", "--strategy", "fg", "--update"], in: dir)
        #expect(update.status == 0)
        #expect(update.stdout == "UPDATED: s/two.fg.timeline\nPASS: s/two.json [fg]\n1 passed, 0 failed\n")
        #expect(try read("s/two.fg.timeline", in: dir) == "   0  enqueue  a\n   0  show     a\n   0  enqueue  b\n1000  hide     a  duration\n1000  show     b\n2000  hide     b  duration\n")
        // The timeline is now checked as well as the property: a changed run fails on its diff.
        try edit("s/two.json", in: dir) { $0.replacingOccurrences(of: #""a": {"duration": 1000}"#, with: #""a": {"duration": 1500}"#) }
        let check = try runPopsim(["check", "s/"], in: dir)
        #expect(check.status == 1)
        #expect(check.stdout.hasPrefix("PASS: s/two.json [jc-fifo] (properties only: no golden)\nFAIL: s/two.json [fg]\n--- expected: s/two.fg.timeline\n"))
        // The scenario's own strategy had no golden (properties were its check): now it has one.
        let again = try runPopsim(["check", "s/two.json", "--update"], in: dir)
        #expect(again.stdout == "UPDATED: s/two.jc-fifo.timeline\nPASS: s/two.json [jc-fifo]\nUPDATED: s/two.fg.timeline\nPASS: s/two.json [fg]\n2 passed, 0 failed\n")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s/two.jc-fifo.timeline").path))
    }

    @Test func aPluginGoldenIsCheckedThroughTheProjectFileAndFailsWhenThePluginChanges() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try copy("Scenarios/flow-wish-rules.json", to: "scenarios/flow.json", in: dir)
        try plugin("plugins/manager.py", in: dir)
        let record = try runPopsim(["check", "scenarios/flow.json", "--strategy", "exec:plugins/manager.py", "--update"], in: dir)
        #expect(record.status == 0 && record.stdout.hasPrefix("UPDATED: scenarios/flow.exec-manager.timeline\n"))

        // No project file: the golden is a failure that says what to do, never a silent pass.
        let unresolved = try runPopsim(["check", "scenarios"], in: dir)
        #expect(unresolved.status == 1)
        #expect(unresolved.stdout == "PASS: scenarios/flow.json [fg] (properties only: no golden)\nFAIL: scenarios/flow.json [exec-manager]\n"
            + "scenarios/flow.exec-manager.timeline names plug-in 'manager', and no .popsim.json lists it: list its path under \"plugins\" in a .popsim.json at the repository's root (docs/ci.md), or pass --strategy exec:PATH\n"
            + "1 passed, 1 failed\n")

        try write(".popsim.json", #"{"popsimProject": 1, "plugins": ["plugins/manager.py"]}"#, in: dir)
        let passes = try runPopsim(["check", "scenarios"], in: dir)
        #expect(passes.status == 0)
        #expect(passes.stdout == "PASS: scenarios/flow.json [fg] (properties only: no golden)\nPASS: scenarios/flow.json [exec-manager]\n2 passed, 0 failed\n")

        try edit("plugins/manager.py", in: dir) { $0.replacingOccurrences(of: #"return self.popups[name].get("priority", 100)"#, with: #"return -self.popups[name].get("priority", 100)"#) }
        let fails = try runPopsim(["check", "scenarios", "--junit", "report.xml"], in: dir)
        #expect(fails.status == 1)
        #expect(fails.stdout.contains("FAIL: scenarios/flow.json [exec-manager]: property 'editWish before shareGuide' fails\n"
            + "  fails  editWish before shareGuide: shareGuide shown at 0 ms, editWish at 3500 ms\n--- expected: scenarios/flow.exec-manager.timeline\n"))
        #expect(fails.stdout.hasSuffix("1 passed, 1 failed\nto accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):\n"
            + "  popsim check scenarios/flow.json --strategy exec:plugins/manager.py --update\n"))
        let junit = try read("report.xml", in: dir)
        #expect(junit.contains("failures=\"1\""))
        // JUnit's time is filled (seconds, three decimals): the plug-in's check took some.
        #expect(junit.contains(#"<testcase classname="scenarios/flow.json" name="exec-manager" time="0."#) || junit.contains(#"name="exec-manager" time="1."#))
        #expect(!junit.contains(#"name="exec-manager" time="0.000""#))
        let github = try runPopsim(["check", "scenarios", "--format", "github"], in: dir)
        #expect(github.stdout.contains("\n::error file=scenarios/flow.json,line=12,title=scenarios/flow.json [exec-manager]::fails  editWish before shareGuide: shareGuide shown at 0 ms, editWish at 3500 ms\n"))
    }

    @Test func aPolicyGoldenIsCheckedAndFailsWhenThePolicyChanges() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try copy("Scenarios/jc-burst-of-three.json", to: "burst.json", in: dir)
        try copy("Scenarios/jc-burst-of-three.jc-fifo.timeline", to: "burst.jc-fifo.timeline", in: dir)
        try copy("Examples/policies/jc-fifo.json", to: "rules/team.json", in: dir)
        try copy("Examples/policies/notistack.json", to: "rules/snacks.json", in: dir)
        for policy in ["rules/team.json", "rules/snacks.json"] {
            #expect(try runPopsim(["check", "burst.json", "--policy", policy, "--update"], in: dir).status == 0)
        }
        try write(".popsim.json", #"{"popsimProject": 1, "policies": ["rules/team.json", "rules/snacks.json"]}"#, in: dir)
        let passes = try runPopsim(["check", "."], in: dir)
        #expect(passes.stdout == "PASS: ./burst.json [jc-fifo]\nPASS: ./burst.json [policy-snacks]\nPASS: ./burst.json [policy-team]\nSKIP: ./rules/snacks.json (not a popsim scenario: no \"popsim\" key)\nSKIP: ./rules/team.json (not a popsim scenario: no \"popsim\" key)\n3 passed, 0 failed, 2 skipped\n")
        try edit("rules/team.json", in: dir) { $0.replacingOccurrences(of: #""showMs": 400"#, with: #""showMs": 500"#) }
        let fails = try runPopsim(["check", "burst.json"], in: dir)
        #expect(fails.status == 1)
        #expect(fails.stdout.hasPrefix("PASS: burst.json [jc-fifo]\nPASS: burst.json [policy-snacks]\nFAIL: burst.json [policy-team]\n--- expected: burst.policy-team.timeline\n"))
        // On GitHub, the failure is an annotation at the golden's first changed line.
        let github = try runPopsim(["check", "burst.json", "--format", "github"], in: dir)
        #expect(github.status == 1)
        let annotations = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(annotations.count == 1)
        #expect(annotations.first?.hasPrefix("::error file=burst.policy-team.timeline,line=5,title=burst.json [policy-team]::timeline differs from burst.policy-team.timeline%0A--- expected: burst.policy-team.timeline%0A+++ actual: burst.json [policy-team]%0A@@ ") == true)
        #expect(github.stdout.hasSuffix("2 passed, 1 failed\nto accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):\n"
                                        + "  popsim check burst.json --strategy policy --policy rules/team.json --update\n"))
    }

    @Test func aGoldenNamingNoStrategyFailsWithASuggestion() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write("two.json", Self.withExpect, in: dir)
        try write("two.jc-fif.timeline", "", in: dir)
        // The golden of another scenario whose name extends this one's is not this one's.
        try write("two.b.json", Self.withExpect, in: dir)
        try write("two.b.jc-fifo.timeline", try runPopsim(["run", "two.json", "--format", "timeline"], in: dir).stdout, in: dir)
        let check = try runPopsim(["check", "two.json"], in: dir)
        #expect(check.status == 1)
        #expect(check.stdout == "PASS: two.json [jc-fifo] (properties only: no golden)\nFAIL: two.json [jc-fif]\ntwo.jc-fif.timeline names no strategy 'jc-fif' (did you mean 'jc-fifo'?): rename or remove it\n1 passed, 1 failed\n")
    }

    @Test func strategyIsRepeatable() throws {
        let check = try runPopsim(["check", "Scenarios/campaign-storm.json", "--strategy", "fg", "--strategy", "sonner"])
        #expect(check.status == 0)
        #expect(check.stdout == "PASS: Scenarios/campaign-storm.json [fg]\nPASS: Scenarios/campaign-storm.json [sonner]\n2 passed, 0 failed\n")
    }

    /// `"strategy": "exec:PATH"` and `"policy": FILE` in a scenario, relative to it, from any folder.
    @Test func aScenarioNamesItsPluginAndPolicyFileRelativeToItself() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try plugin("team/plugins/manager.py", in: dir)
        try copy("Examples/policies/jc-fifo.json", to: "team/rules.json", in: dir)
        let flow = try read("Scenarios/flow-wish-rules.json", in: packageRoot)
        try write("team/flow.json", flow.replacingOccurrences(of: "\"strategy\": \"fg\"", with: "\"strategy\": \"exec:plugins/manager.py\""), in: dir)
        let burst = try read("Scenarios/jc-burst-of-three.json", in: packageRoot)
        try write("team/burst.json", burst.replacingOccurrences(of: "\"strategy\": \"jc-fifo\"", with: "\"policy\": \"rules.json\""), in: dir)
        let run = try runPopsim(["run", "team/flow.json"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("wish flow rules · exec:plugins/manager.py · showMs=0 hideMs=0 navMs=0\n"))
        #expect(run.stdout.contains(try read("Scenarios/flow-wish-rules.exec-flow-manager.timeline", in: packageRoot)))
        let policy = try runPopsim(["run", "team/burst.json"], in: dir)
        #expect(policy.status == 0 && policy.stdout.hasPrefix("burst of three · policy\n  order=fifo busy=wait"))
        #expect(try runPopsim(["check", "team", "--update"], in: dir).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("team").path).sorted()
        #expect(names == ["burst.json", "burst.policy-rules.timeline", "flow.exec-manager.timeline", "flow.json", "plugins", "rules.json"])
        let check = try runPopsim(["check", dir.path + "/team/flow.json", dir.path + "/team/burst.json"], in: packageRoot)
        #expect(check.status == 0 && check.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func aBadProjectFileFailsTheGoldensThatNeedIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try copy("Scenarios/jc-burst-of-three.json", to: "burst.json", in: dir)
        try copy("Scenarios/jc-burst-of-three.jc-fifo.timeline", to: "burst.jc-fifo.timeline", in: dir)
        try write("burst.exec-x.timeline", "", in: dir)
        try write(".popsim.json", #"{"popsimProject": 2, "plugin": []}"#, in: dir)
        let check = try runPopsim(["check", "burst.json"], in: dir)
        #expect(check.status == 1)
        #expect(check.stdout == "PASS: burst.json [jc-fifo]\nFAIL: burst.json [exec-x]\nburst.exec-x.timeline names plug-in 'x', but the project file cannot be read: .popsim.json:1:19: popsimProject: expected the project format version 1, got 2\n1 passed, 1 failed\n")
        try write(".popsim.json", #"{"popsimProject": 1, "plugins": ["a/x.py", "b/x.sh"]}"#, in: dir)
        let twice = try runPopsim(["check", "burst.json"], in: dir)
        #expect(twice.stdout.contains(#".popsim.json:1:44: plugins[1]: expected a file stem no other entry has (a golden names it by its stem), got "b/x.sh", as "a/x.py""#))
    }

    /// explore --save under a plug-in: DIR made, the plug-in named from DIR, one file for a
    /// counterexample that breaks two properties, and check runs it (a FAIL, not exit 2).
    @Test func exploreSavesPlainScenariosThatCheckRuns() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try plugin("m.py", in: dir)
        try edit("m.py", in: dir) { $0.replacingOccurrences(of: #"return self.popups[name].get("priority", 100)"#, with: #"return -self.popups[name].get("priority", 100)"#) }
        try copy("Scenarios/flow-wish-uncertain.json", to: "u.json", in: dir)
        try edit("u.json", in: dir) { $0.replacingOccurrences(of: #""expect": ["editWish before shareGuide", "visible <= 1", "no pending"]"#,
                                                                with: #""expect": ["editWish before shareGuide", "visible <= 1", "resultRejected before shareGuide"]"#) }
        let explore = try runPopsim(["explore", "u.json", "--strategy", "exec:m.py", "--budget", "30", "--save", "out/deep"], in: dir)
        #expect(explore.status == 1)
        #expect(explore.stderr == "saved: out/deep/u.exec-m.1.json\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out/deep").path) == ["u.exec-m.1.json"])
        #expect(try read("out/deep/u.exec-m.1.json", in: dir).contains(#""strategy": "exec:../../m.py""#))
        let check = try runPopsim(["check", "out/deep"], in: dir)
        #expect(check.status == 1)
        #expect(check.stdout.hasPrefix("FAIL: out/deep/u.exec-m.1.json [exec-m]: properties 'editWish before shareGuide', 'resultRejected before shareGuide' fail\n"))
    }
}
