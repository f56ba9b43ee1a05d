import Foundation
import Testing
import PopsimTestSupport

/// Issue 20, part 2: every way a plug-in can fail stops popsim with one line naming the plug-in,
/// the instant (when there is one) and the line it was answering; exit 2, never 70; no output
/// file. The plug-ins are tiny shell and Python scripts written for each case.
@Suite("plug-ins that fail, end to end")
struct PluginFailureTests {
    /// A plug-in that answers `{}` to everything, except as `reply` says for the happening
    /// line containing `trigger` (Python).
    static func python(_ body: String) -> String {
        """
        #!/usr/bin/env python3
        import json, sys, time
        print(json.dumps({"popsimPlugin": 1, "name": "t"}), flush=True)
        for line in sys.stdin:
            m = json.loads(line)
        \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            print("{}", flush=True)

        """
    }

    static let scenario = "Scenarios/jc-burst-of-three.json"
    static let upgrade = #"(answering: {"t": 0, "happening": "enqueued", "popup": "upgrade", "seq": 1})"#

    /// (file name, script or nil for none, extra arguments, expected stderr after "plug-in exec:PATH")
    static let cases: [(String, String?, [String], String)] = [
        ("missing.py", nil, [], ": cannot be started: No such file or directory"),
        ("dies.sh", "#!/bin/sh\necho 'oops: no config' >&2\nexit 3\n", [], ": it exited with status 3 before its handshake (its stderr: oops: no config)"),
        ("silent.sh", "#!/bin/sh\nsleep 30\n", ["--plugin-timeout", "0.3"], ": it sent no handshake within 300 ms; it was stopped (--plugin-timeout sets the limit)"),
        ("v2.sh", "#!/bin/sh\necho '{\"popsimPlugin\": 2, \"name\": \"x\"}'\ncat >/dev/null\n", [],
         #": it speaks protocol version 2; this popsim speaks 1: {"popsimPlugin": 2, "name": "x"}"#),
        ("words.sh", "#!/bin/sh\necho 'hello popsim'\ncat >/dev/null\n", [], ": its handshake is not JSON (expected a value, got 'h'): hello popsim"),
        ("field.sh", "#!/bin/sh\necho '{\"popsimPlugin\": 1, \"name\": \"x\", \"fields\": [\"colour\"]}'\ncat >/dev/null\n", [],
         #": handshake "fields": expected some of priority, when, untriggered, switch, key, level, arrival, dropQueued, dedupeKey, delayMs, minMs, ttlMs, maxShows, got "colour": {"popsimPlugin": 1, "name": "x", "fields": ["colour"]}"#),
        // Issue 30, item 10: an option declared twice would be sent twice, and `--option` would reach one.
        ("dupoption.sh", "#!/bin/sh\necho '{\"popsimPlugin\": 1, \"name\": \"x\", \"options\": [{\"name\": \"k\", \"default\": 1}, {\"name\": \"k\", \"default\": 2}]}'\ncat >/dev/null\n", [],
         #": handshake "options": "k" is declared twice: {"popsimPlugin": 1, "name": "x", "options": [{"name": "k", "default": 1}, {"name": "k", "default": 2}]}"#),
        ("crash.py", python("if m.get('popup') == 'permission': raise SystemExit('boom: cannot handle permission')"), [],
         #" at 0 ms: it exited with status 1 before answering (its stderr: boom: cannot handle permission) (answering: {"t": 0, "happening": "enqueued", "popup": "permission", "seq": 2})"#),
        ("hang.py", python("if m.get('happening') == 'enqueued': time.sleep(30)"), ["--plugin-timeout", "0.3"],
         " at 0 ms: it did not answer within 300 ms; it was stopped (--plugin-timeout sets the limit) " + upgrade),
        ("garbage.py", python("if m.get('happening') == 'enqueued':\n    print('show it', flush=True); continue"), [],
         " at 0 ms: its reply is not JSON (expected a value, got 's'): show it " + upgrade),
        ("chatty.py", python("print('debug: got', m.get('happening'))"), [],
         #" at 0 ms: it wrote more than one line in reply (the second: {}); debugging output belongs on stderr (answering: {"start": "#),
        ("double.py", python("if m.get('happening') == 'enqueued':\n    sys.stdout.write('{}\\n{}\\n'); sys.stdout.flush(); continue"), [],
         " at 0 ms: it wrote more than one line in reply (the second: {}); debugging output belongs on stderr " + upgrade),
        ("step.py", python("if m.get('happening') == 'enqueued':\n    print(json.dumps({'seq': m['seq'] - 1}), flush=True); continue"), [],
         #" at 0 ms: its reply answers line 0, not 1: replies are out of step (one line per message): {"seq": 0} "# + upgrade),
        ("twice.py", python("if m.get('happening') == 'enqueued':\n    print(json.dumps({'decisions': [{'show': 'upgrade'}]}), flush=True); continue"), [],
         #" at 0 ms: it showed 'upgrade', which is already on screen: {"decisions": [{"show": "upgrade"}]} (answering: {"t": 0, "happening": "enqueued", "popup": "permission", "seq": 2})"#),
        ("stranger.py", python("if m.get('happening') == 'enqueued':\n    print(json.dumps({'decisions': [{'show': 'nobody'}]}), flush=True); continue"), [],
         #" at 0 ms: show: no popup "nobody" in the scenario: {"decisions": [{"show": "nobody"}]} "# + upgrade),
        ("reason.py", python("if m.get('happening') == 'enqueued':\n    print(json.dumps({'decisions': [{'drop': m['popup'], 'reason': 'bored'}]}), flush=True); continue"), [],
         #" at 0 ms: decision drop: unknown reason "bored" (see docs/plugin-protocol.md): {"decisions": [{"drop": "upgrade", "reason": "bored"}]} "# + upgrade),
        ("early.py", python("if 'start' in m:\n    print(json.dumps({'decisions': [{'show': 'upgrade'}]}), flush=True); continue"), [],
         #" at 0 ms: it decided something in reply to start, before anything happened: {"decisions": [{"show": "upgrade"}]} (answering: {"start": "#),
    ]

    /// A crash's stack trace is visible: the last 20 lines of its stderr, at most 2 KiB, below
    /// the message, one per line.
    @Test func aCrashShowsTheEndOfItsStderr() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (width, lines) in [(8, 20), (150, 13)] {
            let path = dir.appendingPathComponent("trace\(width).py").path
            try Data(Self.python("if m.get('happening') == 'enqueued':\n    for i in range(1, 26): print(('line %d ' % i).ljust(\(width), 'x'), file=sys.stderr)\n    sys.exit(1)").utf8)
                .write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
            let output = try runPopsim(["run", Self.scenario, "--strategy", "exec:" + path])
            #expect(output.status == 2)
            let shown = output.stderr.split(separator: "\n").map(String.init)
            #expect(shown.first == "plug-in exec:\(path) at 0 ms: it exited with status 1 before answering (its stderr ends with the \(lines) lines below) " + Self.upgrade)
            #expect(Array(shown.dropFirst()) == ((26 - lines)...25).map { "  | " + ("line \($0) ").padding(toLength: width, withPad: "x", startingAt: 0) })
            #expect(shown.dropFirst().reduce(0) { $0 + $1.utf8.count - 3 } <= 2048)
        }
    }

    @Test func everyFailureIsOneLineAndExitTwo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, script, extra, expected) in Self.cases {
            let path = dir.appendingPathComponent(name).path
            if let script {
                try Data(script.utf8).write(to: URL(fileURLWithPath: path))
                chmod(path, 0o755)
            }
            let out = dir.appendingPathComponent(name + ".out").path
            let output = try runPopsim(["run", Self.scenario, "--strategy", "exec:" + path, "--output", out] + extra)
            #expect(output.status == 2, "\(name)")
            #expect(output.stderr.hasPrefix("plug-in exec:\(path)\(expected)"), "\(name): \(output.stderr)")
            #expect(output.stderr.filter { $0 == "\n" }.count == 1, "\(name): one line")
            #expect(output.stdout == "" && !FileManager.default.fileExists(atPath: out), "\(name): no output")
        }
    }

    @Test func aFileThatIsNotAProgram() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.txt").path
        try Data("not a program".utf8).write(to: URL(fileURLWithPath: path))
        let output = try runPopsim(["run", Self.scenario, "--strategy", "exec:" + path])
        #expect(output.status == 2 && output.stderr == "plug-in exec:\(path): cannot be started: it is not executable (chmod +x \(path))\n")
        let folder = try runPopsim(["run", Self.scenario, "--strategy", "exec:" + dir.path])
        #expect(folder.status == 2 && folder.stderr == "plug-in exec:\(dir.path): cannot be started: it is a directory\n")
        let timeout = try runPopsim(["run", Self.scenario, "--strategy", "exec:" + path, "--plugin-timeout", "soon"])
        #expect(timeout.status == 2 && timeout.stderr == "popsim: --plugin-timeout: expected a number of seconds above 0 and at most 86400, got \"soon\"\n")
    }

    /// check and compare stop on a failing plug-in the same way.
    @Test func checkAndCompareReportItToo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("crash.py").path
        try Data(Self.python("if m.get('happening') == 'enqueued': sys.exit(4)").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        let line = "plug-in exec:\(path) at 0 ms: it exited with status 4 before answering " + Self.upgrade + "\n"
        let compare = try runPopsim(["compare", Self.scenario, "--strategy", "jc-fifo", "--strategy", "exec:" + path])
        #expect(compare.status == 2 && compare.stderr == line)
        let check = try runPopsim(["check", Self.scenario, "--strategy", "exec:" + path])
        #expect(check.status == 2 && check.stderr == line)
        #expect(check.stdout == "FAIL: \(Self.scenario) [exec-crash]\n0 passed, 1 failed\n")
    }
}

/// Issue 20, part 2: no plug-in outlives popsim — not after a normal run (what it started in
/// its process group goes too), not when popsim's `--timeout` fires, not on SIGTERM.
@Suite("plug-ins never outlive popsim")
struct PluginLifetimeTests {
    /// A plug-in that starts a `sleep` of its own, notes both pids beside itself, and hangs at the
    /// first enqueue when `hang` is set.
    static func script(hang: Bool) -> String {
        """
        #!/usr/bin/env python3
        import json, os, subprocess, sys, time
        child = subprocess.Popen(["sleep", "30"])
        with open(sys.argv[0] + ".pids", "w") as f:
            f.write(f"{os.getpid()} {child.pid}\\n")
        print(json.dumps({"popsimPlugin": 1, "name": "t"}), flush=True)
        for line in sys.stdin:
            m = json.loads(line)
            if \(hang ? "True" : "False") and m.get("happening") == "enqueued":
                time.sleep(30)
            print(json.dumps({"pending": []} if m.get("happening") == "finished" else {}), flush=True)

        """
    }

    func plugin(hang: Bool, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(hang ? "hang.py" : "calm.py").path
        try Data(Self.script(hang: hang).utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    /// The pids the last plug-in process wrote, once both are gone (false if one still runs after
    /// 3 s). A zombie is gone: killed, and waiting for whoever reaps it (init, once popsim died).
    func allGone(_ plugin: String) throws -> Bool {
        let pids = try String(contentsOfFile: plugin + ".pids", encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        #expect(pids.count == 2)
        func running(_ pid: Int32) -> Bool {
            guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? false)
        }
        for _ in 0..<300 {
            if !pids.contains(where: running) { return true }
            usleep(10_000)
        }
        return false
    }

    /// popsim running a scenario under the hanging plug-in at `path`, returned once the run's
    /// plug-in (the second start: the first only said hello) hangs.
    func startHangingRun(_ path: String, stderr: Any) throws -> Process {
        let process = Process()
        process.executableURL = popsimExecutable()
        process.arguments = ["run", packageRoot.path + "/Scenarios/jc-burst-of-three.json", "--strategy", "exec:" + path, "--plugin-timeout", "60"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        for _ in 0..<500 where (try? String(contentsOfFile: path + ".pids", encoding: .utf8)) == nil { usleep(10_000) }
        usleep(600_000)
        return process
    }

    @Test func aNormalRunLeavesNothingRunning() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try plugin(hang: false, in: dir)
        let output = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--strategy", "exec:" + path])
        #expect(output.status == 0 && output.stderr == "")
        #expect(try allGone(path))
    }

    @Test func popsimsTimeoutStopsThePlugIn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try plugin(hang: true, in: dir)
        // 3 s: on a loaded machine (the whole suite on 2 cores) Python's start alone has taken over 1 s,
        // and the timeout then fired before the plug-in noted its pids.
        let output = try runPopsim(["run", "Scenarios/jc-burst-of-three.json", "--strategy", "exec:" + path, "--timeout", "3",
                                    "--plugin-timeout", "60"])
        #expect(output.status == 2 && output.stderr == "popsim: timed out after 3 s (raise or disable the limit with --timeout)\n")
        #expect(try allGone(path))
    }

    /// Issue 30, item 12: popsim killed by SIGKILL runs no handler; the watcher it started with
    /// its first plug-in (System.Reaper) sees its pipe close and kills the plug-in's group.
    @Test func aPlugInDiesWithPopsimKilledOutright() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try plugin(hang: true, in: dir)
        let process = try startHangingRun(path, stderr: FileHandle.nullDevice)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(try allGone(path), "plug-in processes outlived popsim killed by SIGKILL")
    }

    /// SIGTERM; and (issue 30, item 12) SIGUSR1 and SIGQUIT, which ended popsim with a crash
    /// report and left the plug-in running: now the same clean stop, and no crash report.
    @Test(arguments: [SIGTERM, SIGUSR1, SIGQUIT])
    func aSignalStopsThePlugIn(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try plugin(hang: true, in: dir)
        let errors = Pipe()
        let process = try startHangingRun(path, stderr: errors)
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        #expect(stderr == "")
        #expect(try allGone(path))
    }
}
