import Foundation
import Testing
import PopsimTestSupport

/// Issue 25, "Plug-ins fit for search": a plug-in whose handshake says `"persistent": true`
/// serves many runs in one process (popsim sends the next `start` after `finished`); explore and
/// check keep about one process per job; `--plugin-per-run` and plug-ins that do not say so get a
/// process per run; the bytes are the same either way.
@Suite("plug-ins that serve many runs")
struct PersistentPluginTests {
    /// A plug-in that shows each popup when it is enqueued and notes `<pid> start` beside itself
    /// for every run it serves.
    static func script(_ handshake: String) -> String {
        """
        #!/usr/bin/env python3
        import json, os, sys
        print(json.dumps(\(handshake)), flush=True)
        screen = []
        for line in sys.stdin:
            m = json.loads(line)
            if "start" in m:
                with open(sys.argv[0] + ".runs", "a") as f:
                    f.write(f"{os.getpid()} start\\n")
                screen = []
                print("{}", flush=True)
            elif m["happening"] == "finished":
                print(json.dumps({"pending": []}), flush=True)
            elif m["happening"] == "enqueued" and not screen:
                screen.append(m["popup"])
                print(json.dumps({"decisions": [{"show": m["popup"]}]}), flush=True)
            elif m["happening"] == "gone":
                screen.remove(m["popup"])
                print("{}", flush=True)
            else:
                print("{}", flush=True)

        """
    }

    /// The processes that served runs (distinct pids) and the runs they served; none of the
    /// processes outlives popsim.
    static func served(_ path: String) throws -> (processes: Int, runs: Int) {
        let lines = try String(contentsOfFile: path + ".runs", encoding: .utf8).split(separator: "\n")
        try FileManager.default.removeItem(atPath: path + ".runs")
        let pids = Set(lines.compactMap { Int32($0.split(separator: " ")[0]) })
        for pid in pids { #expect(kill(pid, 0) != 0, "plug-in \(pid) outlived popsim") }
        return (pids.count, lines.count)
    }

    static let scenario = "Scenarios/first-launch-uncertain.json"

    @Test func oneProcessPerJob() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("many.py").path
        try Data(Self.script(#"{"popsimPlugin": 1, "name": "many", "persistent": True}"#).utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        let explore = ["explore", Self.scenario, "--strategy", "exec:" + path, "--budget", "40"]
        let one = try runPopsim(explore + ["--jobs", "1"])
        #expect(one.status == 1, "\(one.stderr)")
        let jobs1 = try Self.served(path)
        #expect(jobs1.processes == 1 && jobs1.runs >= 40, "\(jobs1)")
        let two = try runPopsim(explore + ["--jobs", "2"])
        #expect(two.stdout == one.stdout)
        let jobs2 = try Self.served(path)
        #expect(jobs2.processes <= 2 && jobs2.runs == jobs1.runs, "\(jobs2)")
        let fresh = try runPopsim(explore + ["--jobs", "1", "--plugin-per-run"])
        #expect(fresh.stdout == one.stdout)
        let perRun = try Self.served(path)
        #expect(perRun.processes == perRun.runs && perRun.runs == jobs1.runs, "\(perRun)")
    }

    /// A plug-in that does not offer to serve many runs still gets a process per run.
    @Test func oldPluginsKeepAProcessPerRun() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("once.py").path
        try Data(Self.script(#"{"popsimPlugin": 1, "name": "once"}"#).utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        let output = try runPopsim(["explore", Self.scenario, "--strategy", "exec:" + path, "--budget", "10", "--jobs", "1"])
        #expect(output.status == 1, "\(output.stderr)")
        let served = try Self.served(path)
        #expect(served.processes == served.runs && served.runs >= 10, "\(served)")
        let bad = dir.appendingPathComponent("bad.py").path
        try Data(Self.script(#"{"popsimPlugin": 1, "name": "bad", "persistent": "yes"}"#).utf8).write(to: URL(fileURLWithPath: bad))
        chmod(bad, 0o755)
        let refused = try runPopsim(["run", Self.scenario, "--strategy", "exec:" + bad])
        #expect(refused.status == 2)
        #expect(refused.stderr == #"plug-in exec:\#(bad): handshake "persistent": expected true or false, got "yes": {"popsimPlugin": 1, "name": "bad", "persistent": "yes"}"# + "\n")
    }

    /// Every bundled scenario, one popsim serving them all from one Python process, prints the
    /// same bytes as a process per run.
    @Test func sameBytesAsAProcessPerRun() throws {
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Scenarios").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "Scenarios/" + $0 }
        #expect(scenarios.count >= 80)
        let run = ["run"] + scenarios + ["--strategy", "exec:Examples/plugins/notistack.py"]
        let shared = try runPopsim(run)
        let fresh = try runPopsim(run + ["--plugin-per-run"])
        #expect(shared.status == 1 && fresh.status == shared.status)
        #expect(shared.stdout.count > 50_000)
        #expect(shared.stdout == fresh.stdout)
        #expect(shared.stderr == fresh.stderr)
    }
}
