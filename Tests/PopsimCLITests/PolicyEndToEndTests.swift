import Foundation
import Testing
import PopsimTestSupport

/// Issue 20, part 1, end to end: `--policy FILE` with run, check, compare, lint and explore, and
/// every kind of bad policy file with its exact message and exit code.
@Suite("policy files, end to end")
struct PolicyEndToEndTests {
    func file(_ name: String, _ text: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let bad: [(text: String, message: String)] = [
        (#"{"ordr": "lifo"}"#, #":1:2: ordr: policy has no option "ordr"; did you mean 'order'?"#),
        (#"{"busy": "evict"}"#, #":1:10: busy: expected one of wait, replace, preempt, drop; got "evict""#),
        (#"{"slots": 0}"#, ":1:11: slots: expected an integer >= 1, got 0"),
        (#"{"slots": "two"}"#, #":1:11: slots: expected an integer >= 1, got "two""#),
        (#"{"description": 3}"#, ":1:17: description: expected a string, got 3"),
        ("[1]", ":1:1: expected an object, got an array"),
        ("", ":1:1: expected a JSON value, got an empty file"),
        (#"{"order": "fifo",}"#, ":1:18: expected a string key, got '}'"),
    ]

    @Test func everyBadPolicyFileIsOneLocatedErrorAndExitTwo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, (text, message)) in Self.bad.enumerated() {
            let path = try file("p\(i).json", text, in: dir)
            let out = dir.appendingPathComponent("out\(i).txt").path
            let output = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--policy", path, "--output", out])
            #expect(output.status == 2, "\(text)")
            #expect(output.stderr == path + message + "\n")
            #expect(output.stdout == "")
            #expect(!FileManager.default.fileExists(atPath: out), "no partial output for \(text)")
        }
        for command in [["check"], ["lint"], ["explore"], ["compare", "--strategy", "policy", "--strategy", "fg"]] {
            let path = try file("bad.json", #"{"slots": 0}"#, in: dir)
            let output = try runPopsim(Array(command.prefix(1)) + ["Scenarios/flow-wish-uncertain.json", "--policy", path] + command.dropFirst())
            #expect(output.status == 2 && output.stderr == path + ":1:11: slots: expected an integer >= 1, got 0\n", "\(command)")
        }
        let missing = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--policy", dir.path + "/none.json"])
        #expect(missing.status == 2 && missing.stderr == dir.path + "/none.json: cannot read: No such file or directory\n")
        let folder = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--policy", dir.path])
        #expect(folder.status == 2 && folder.stderr == dir.path + ": cannot read: it is a directory\n")
    }

    /// A policy file runs where a strategy does, and check records and finds its own goldens.
    @Test func runCheckCompareLintAndExploreTakeAPolicyFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let policy = packageRoot.appendingPathComponent("Examples/policies/jc-fifo.json").path
        let run = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--policy", policy])
        let builtIn = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--strategy", "jc-fifo"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("burst of three · policy\n  order=fifo busy=wait"))
        #expect(run.stdout.components(separatedBy: "   0  enqueue  upgrade\n").last == builtIn.stdout.components(separatedBy: "   0  enqueue  upgrade\n").last)

        let scenario = try file("burst.json", String(decoding: try Data(contentsOf: packageRoot.appendingPathComponent("Scenarios/jc-burst-of-three.json")), as: UTF8.self), in: dir)
        let missing = try runPopsim(["check", scenario, "--policy", policy])
        #expect(missing.status == 1)
        #expect(missing.stdout == "FAIL: \(scenario) [policy-jc-fifo]\nno expected timeline \(dir.path)/burst.policy-jc-fifo.timeline: record one with "
            + "'popsim check \(scenario) --strategy policy --policy \(policy) --update' and review it\n0 passed, 1 failed\n"
            + "to accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):\n"
            + "  popsim check \(scenario) --strategy policy --policy \(policy) --update\n")
        #expect(try runPopsim(["check", scenario, "--strategy", "policy", "--policy", policy, "--update"]).status == 0)
        let golden = try String(contentsOfFile: dir.path + "/burst.policy-jc-fifo.timeline", encoding: .utf8)
        #expect(golden == (try String(contentsOfFile: packageRoot.appendingPathComponent("Scenarios/jc-burst-of-three.jc-fifo.timeline").path, encoding: .utf8)))
        let passed = try runPopsim(["check", scenario, "--policy", policy])
        #expect(passed.status == 0 && passed.stdout == "PASS: \(scenario) [policy-jc-fifo]\n1 passed, 0 failed\n")

        let compare = try runPopsim(["compare", "Scenarios/jc-burst-of-three.json", "--strategy", "policy", "--strategy", "jc-fifo",
                                     "--policy", policy, "--format", "json"])
        #expect(compare.status == 0 && compare.stdout.contains(#""label": "policy""#))
        let lint = try runPopsim(["lint", "Scenarios/jc-burst-of-three.json", "--policy", policy])
        #expect(lint.status == 0 && lint.stdout == "0 hazards, 0 notes\n")
        let explore = try runPopsim(["explore", "Scenarios/flow-wish-uncertain.json", "--policy", policy])
        let exploreBuiltIn = try runPopsim(["explore", "Scenarios/flow-wish-uncertain.json", "--strategy", "jc-fifo"])
        #expect(explore.status == 1)
        #expect(explore.stdout == exploreBuiltIn.stdout.replacingOccurrences(of: "\njc-fifo\n", with: "\npolicy\n"))
    }
}
