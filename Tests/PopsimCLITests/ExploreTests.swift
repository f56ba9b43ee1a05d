import Foundation
import Testing
import PopsimTestSupport

/// `explore`: planted violations found by exhaustive search, shrunk to the expected script,
/// saved as a scenario `check` fails on; the same bytes with any `--jobs`.
@Suite("explore", .serialized)
struct ExploreTests {
    /// `a before b` breaks only when the batch arrives as b, a.
    static let order = #"{"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}, "b": {}}, "expect": ["a before b"], "events": [{"at": 0, "enqueue": ["a", "b"], "order": "any"}]}"#
    /// `b before a` breaks only when b arrives at 10, the end of its window, with a.
    static let window = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}, "b": {"duration": 1}}, "expect": ["b before a"], "events": [{"at": 10, "enqueue": "a"}, {"at": [0, 10], "enqueue": "b"}]}"#

    @Test func aViolationInOneOrderIsFoundAndShrunk() throws {
        let output = try runPopsim(["explore", "-"], stdin: Self.order)
        #expect(output.status == 1)
        #expect(output.stdout == """
            -: 2 variants of 2 (exhaustive)

            jc-fifo
              fails  a before b (in 1 of 2)
                smallest counterexample: [a, b] arrive as b, a
                at 0 ms: b shown at 0 ms, a never
                  0  enqueue  b
                  0  show     b
                  0  enqueue  a

            0 held, 1 failed (properties × strategies)

            """)
    }

    @Test func aViolationAtOneInstantOfAWindowIsFound() throws {
        let output = try runPopsim(["explore", "-"], stdin: Self.window)
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("""
            -: 11 variants of 11 (exhaustive)

            fg
              fails  b before a (in 1 of 11)
                smallest counterexample: b arrives at 10 instead of 0

            """))
    }

    @Test func theCounterexampleIsSavedAndCheckFailsOnIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("flow.json")
        try Data(Self.order.utf8).write(to: scenario)
        let output = try runPopsim(["explore", scenario.path, "--save", dir.path])
        #expect(output.status == 1)
        let saved = dir.appendingPathComponent("flow.jc-fifo.1.json")
        #expect(output.stderr == "saved: \(saved.path)\n")
        let text = try String(contentsOf: saved, encoding: .utf8)
        #expect(text.contains(#""events": [\#n    {"at": 0, "enqueue": ["b", "a"]}\#n  ]"#))
        #expect(!text.contains("order"))
        let check = try runPopsim(["check", saved.path])
        #expect(check.status == 1)
        #expect(check.stdout.hasPrefix("FAIL: \(saved.path) [jc-fifo]: property 'a before b' fails\n"))
    }

    @Test func theSameBytesWithAnyJobs() throws {
        // Every strategy in the full tier; in the quick one, four of different kinds.
        let strategies = TestTier.full ? ["--strategy", "all"] : ["--strategy", "fg", "--strategy", "sonner", "--strategy", "policy", "--strategy", "mdc-snackbar"]
        let one = try runPopsim(["explore", "Scenarios/flow-wish-uncertain.json"] + strategies + ["--jobs", "1", "--format", "json"])
        let two = try runPopsim(["explore", "Scenarios/flow-wish-uncertain.json"] + strategies + ["--jobs", "2", "--format", "json"])
        #expect(one.status == 1)
        #expect(one.stdout == two.stdout)
        #expect(one.stderr == "" && two.stderr == "")  // no progress line off a terminal
        #expect(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) is [String: Any])
    }

    /// Beyond the budget: a seeded sample that covers both ends of every window, said so.
    @Test func aSampleBeyondTheBudget() throws {
        let output = try runPopsim(["explore", "-", "--budget", "3", "--seed", "9"], stdin: Self.window)
        #expect(output.stdout.hasPrefix("-: 3 variants of 11 (sampled, seed 9; both ends of every window)\n"))
        #expect(output.status == 1)
        #expect(output.stdout.contains("smallest counterexample: b arrives at 10 instead of 0"))
    }

    /// Shards' JSON reports merge into the unsharded report, byte for byte.
    @Test func shardsMergeIntoTheWholeReport() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = "Scenarios/flow-wish-uncertain.json"
        let whole = try runPopsim(["explore", file, "--strategy", "fg", "--strategy", "keyed", "--format", "json"])
        var paths: [String] = []
        for i in 0..<3 {
            let shard = try runPopsim(["explore", file, "--strategy", "fg", "--strategy", "keyed", "--format", "json", "--shard", "\(i)/3"])
            #expect(shard.status == 1)
            #expect(shard.stdout.contains(#""shard": "\#(i)/3""#))
            let path = dir.appendingPathComponent("s\(i).json").path
            try Data(shard.stdout.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let merged = try runPopsim(["explore", "--merge", "--format", "json"] + paths.reversed())
        #expect(merged.status == 1)
        #expect(merged.stdout == whole.stdout)
        let text = try runPopsim(["explore", "--merge"] + paths)
        let wholeText = try runPopsim(["explore", file, "--strategy", "fg", "--strategy", "keyed"])
        #expect(text.stdout == wholeText.stdout)
        let missing = try runPopsim(["explore", "--merge"] + paths.dropLast())
        #expect(missing.status == 2)
        #expect(missing.stderr == "popsim: explore: --merge: expected the reports of every shard I/N of one exploration, each once\n")
        let bad = try runPopsim(["explore", file, "--shard", "3/3"])
        #expect(bad.status == 2 && bad.stderr == "popsim: explore: --shard: expected I/N with 0 <= I < N <= 1000000, got \"3/3\"\n")
    }

    @Test func nothingToJudgeOrTooLargeABudgetIsAUsageError() throws {
        let none = try runPopsim(["explore", "-"], stdin: #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#)
        #expect(none.status == 2 && none.stdout == "")
        #expect(none.stderr == "popsim: explore: - has no \"expect\": no property to judge (see docs/scenario-format.md)\n")
        let huge = try runPopsim(["explore", "Scenarios/flow-wish-uncertain.json", "--budget", "2000000000"])
        #expect(huge.status == 2)
        #expect(huge.stderr == "popsim: explore: --budget: expected an integer from 1 to 1000000000, got 2000000000; split a larger exploration with --shard\n")
    }

    /// A window as wide as time itself: loads, runs its nominal variant, and explores a sample.
    @Test func aFullWidthWindowDoesNotTrap() throws {
        let text = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "expect": ["shown a"], "events": [{"at": [0, 9223372036854775807], "enqueue": "a"}]}"#
        #expect(try runPopsim(["run", "-"], stdin: text).status == 0)
        let output = try runPopsim(["explore", "-", "--budget", "3"], stdin: text)
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("-: 3 variants of at least 9223372036854775807 (sampled, seed 1; both ends of every window)\n"))
    }

    /// run, compare and run's JSON say they ran the nominal variant of an uncertain scenario.
    @Test func runAndCompareSayTheyRanTheNominalVariant() throws {
        let file = "Scenarios/first-launch-uncertain.json"
        let run = try runPopsim(["run", file])
        #expect(run.stdout.hasPrefix("first launch, uncertain network · fg\n  order=priority+fifo showMs=250 hideMs=200 navMs=0\n"
            + "nominal variant of 3 uncertain events ('popsim explore' runs the others)\n"))
        let json = try runPopsim(["run", file, "--format", "json"])
        #expect(json.stdout.contains(#""navMs": 0}, "nominal": true,"#))
        let compare = try runPopsim(["compare", file, "--strategy", "fg", "--strategy", "keyed"])
        #expect(compare.stdout.hasPrefix("Scenario: first launch, uncertain network (\(file))\n"
            + "nominal variant of 3 uncertain events ('popsim explore' runs the others)\n"))
        let plain = try runPopsim(["run", "Scenarios/first-launch.json"])
        #expect(!plain.stdout.contains("nominal variant"))
    }

    /// A large batch in any order: shrinking is bounded (`Explorer.maxShrinkRuns`) and the
    /// counterexample names the first popups of the batch, not all of them.
    @Test func aLargeBatchShrinksWithinBoundsAndReadsShort() throws {
        let n = TestTier.count(quick: 120, full: 200)
        let names = (0..<n).map { "p\($0)" }
        let popups = names.map { #""\#($0)": {"duration": 1}"# }.joined(separator: ", ")
        let list = names.map { #""\#($0)""# }.joined(separator: ", ")
        let text = #"{"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0}, "popups": {\#(popups)}, "expect": ["p0 before p1"], "events": [{"at": 0, "enqueue": [\#(list)], "order": "any"}]}"#
        let output = try runPopsim(["explore", "-", "--budget", "12"], stdin: text)
        #expect(output.status == 1)
        #expect(output.stdout.contains("smallest counterexample: [p0, p1, p2, p3, p4, p5, p6, p7, … (\(n) popups)] arrive as "))
        #expect(output.stdout.split(separator: "\n").allSatisfy { $0.count < 200 })
    }
}
