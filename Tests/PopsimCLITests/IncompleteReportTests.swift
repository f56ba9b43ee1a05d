import Foundation
import Testing
@testable import PopsimReports
import PopsimTestSupport

/// Issue 25: stopped by `--timeout` or a signal, explore and check report what they did, marked
/// incomplete, and exit 2; a second signal or a stop that does not come stops popsim at once.
@Suite("stopped work reports what was done")
struct IncompleteReportTests {
    /// A slow exploration: a new Python process for every variant.
    static let slowExplore = ["explore", "Scenarios/first-launch-uncertain.json", "--strategy", "exec:Examples/plugins/notistack.py",
                              "--plugin-per-run", "--budget", "5000", "--jobs", "1"]

    /// The variants a strategy ran, from `holds  no overlap (in all N)`.
    static func variantsRun(_ text: String) -> Int? {
        guard let range = text.range(of: "(in all ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func exploreTimedOut() throws {
        let output = try runPopsim(Self.slowExplore + ["--timeout", "2"])
        #expect(output.status == 2)
        #expect(output.stderr == "popsim: timed out after 2 s (raise or disable the limit with --timeout)\n")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Scenarios/first-launch-uncertain.json: 5000 variants of 5202 (sampled, seed 1; both ends of every window)")
        #expect(lines.dropFirst().first == "INCOMPLETE: timed out after 2 s; the verdicts below cover the variants run")
        #expect(output.stdout.contains("    first counterexample (not shrunk): the nominal script\n"))
        #expect(output.stdout.hasSuffix("2 held, 1 failed (properties × strategies); incomplete\n"))
        let run = Self.variantsRun(output.stdout) ?? 0
        #expect(run > 0 && run < 5000, "\(run)")
        let json = try runPopsim(Self.slowExplore + ["--timeout", "1", "--format", "json"])
        #expect(json.status == 2 && json.stdout.contains(#""shard": "#) == false)
        #expect(json.stdout.contains(#""incomplete": "timed out after 1 s", "strategies": ["#))
    }

    @Test func exploreInterrupted() throws {
        let stopped = try runPopsim(Self.slowExplore, interruptAfter: 1.5)
        let stdout = stopped.stdout, stderr = stopped.stderr
        #expect(stopped.status == 2)
        #expect(stderr == "popsim: stopping: reporting what was done (again to stop at once)\n")
        #expect(stdout.contains("\nINCOMPLETE: stopped by SIGINT; the verdicts below cover the variants run\n"))
        #expect((Self.variantsRun(stdout) ?? 0) > 0)
    }

    @Test func checkTimedOut() throws {
        let output = try runPopsim(["check", "Scenarios/", "--strategy", "exec:Examples/plugins/notistack.py", "--plugin-per-run",
                                    "--jobs", "1", "--timeout", "1"])
        #expect(output.status == 2)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let checked = lines.filter { $0.hasPrefix("FAIL: ") || $0.hasPrefix("PASS: ") }.count
        let total = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Scenarios").path)
            .filter { $0.hasSuffix(".json") }.count
        #expect(checked > 0 && checked < total)
        // The INCOMPLETE line comes right before the counts (the commands that accept what was
        // missing, if any, after them).
        let counts = lines.lastIndex { $0.contains(" passed, ") } ?? 0
        #expect(counts > 0 && lines[counts - 1] == "INCOMPLETE: timed out after 1 s; \(checked) of \(total) scenarios checked")
    }

    /// An incomplete shard cannot make a merged report that looks whole.
    @Test func anIncompleteShardIsRefused() {
        var a = ExploreReport(file: "x.json", possible: 10, run: 5, exhaustive: true, seed: 1, shard: "0/2", strategies: [])
        var b = ExploreReport(file: "x.json", possible: 10, run: 5, exhaustive: true, seed: 1, shard: "1/2", strategies: [])
        a.exploration = "same"
        b.exploration = "same"
        #expect((try? ExploreReport.merging([a, b])) != nil)
        a.incomplete = "stopped by SIGINT"
        #expect(throws: ExploreReport.MergeError(reason: "the report of shard 0/2 is incomplete (stopped by SIGINT): run that shard again")) {
            try ExploreReport.merging([a, b])
        }
    }
}
