import Foundation
import Testing
import PopsimCore
import PopsimTestSupport

/// The second round of hostile input: crashes, files, output that could drive a terminal. Each
/// case asserts the exit code and the exact message, and for files what is left on disk.
@Suite("hostile inputs, second round", .serialized)
struct HostileInputRound2Tests {
    func file(_ name: String, _ text: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A `then` that enqueues and dismisses its own popup ran as recursion and overflowed the
    /// stack; now the per-instant step limit stops it, and `check` goes on with the rest.
    @Test(arguments: ["fg", "keyed", "android-toast"])
    func aThenThatFeedsItselfIsStoppedNotCrashed(_ strategy: String) throws {
        let text = #"{"popsim": 1, "strategy": "\#(strategy)", "popups": {"p0": {"then": {"close": [{"enqueue": "p0"}, {"dismiss": "p0"}]}}}, "events": [{"at": 0, "enqueue": "p0"}, {"at": 1, "dismiss": "p0"}]}"#
        let output = try runPopsim(["run", "-", "--quiet"], stdin: text)
        #expect(output.status == 2)
        #expect(output.stderr == "-: the run did not settle: more than 100000 steps at one instant (at 1 ms); a popup may re-enqueue itself forever\n")
    }

    @Test func checkReportsTheRunawayAndGoesOn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try file("a.json", #"{"popsim": 1, "strategy": "fg", "popups": {"p0": {"then": {"close": [{"enqueue": "p0"}, {"dismiss": "p0"}]}}}, "events": [{"at": 0, "enqueue": "p0"}, {"at": 1, "dismiss": "p0"}]}"#, in: dir)
        _ = try file("b.json", #"{"popsim": 1, "strategy": "fg", "popups": {"x": {}}, "events": [{"at": 0, "enqueue": "x"}]}"#, in: dir)
        _ = try file("b.fg.timeline", "0  enqueue  x\n0  show     x\n", in: dir)
        let output = try runPopsim(["check", dir.path])
        #expect(output.status == 2)
        #expect(output.stdout == "FAIL: \(dir.path)/a.json [fg]\nPASS: \(dir.path)/b.json [fg]\n1 passed, 1 failed\n")
    }

    /// Times near `Int.max` in strategies that add durations: saturate, never trap.
    @Test(arguments: [
        #"{"popsim": 1, "strategy": "android-toast", "popups": {"t1": {"duration": 10}, "t2": {"duration": 9223372036854775807}}, "events": [{"at": 0, "enqueue": ["t1", "t2"]}]}"#,
        #"{"popsim": 1, "strategy": "sonner", "popups": {"t": {"duration": 9223372036854775807}}, "events": [{"at": 5, "enqueue": "t"}]}"#,
        #"{"popsim": 1, "strategy": "sonner", "popups": {"t": {"duration": 9223372036854775797}}, "events": [{"at": 0, "enqueue": "t"}, {"at": 5, "pauseTimers": true}, {"at": 100, "resumeTimers": true}]}"#,
    ])
    func timeSumsSaturate(_ text: String) throws {
        let output = try runPopsim(["run", "-"], stdin: text)
        #expect(output.status == 0 && output.stderr == "")
        let compare = try runPopsim(["compare", "-", "--strategy", "fg", "--strategy", "sonner", "--strategy", "notistack", "--format", "json"], stdin: text)
        #expect(compare.status == 0)
    }

    /// 20,000 `n == 3` joined by `&&`: a located error, no stack overflow.
    @Test func aLongChainIsALocatedError() throws {
        let chain = Array(repeating: "n == 3", count: 20_000).joined(separator: " && ")
        let text = #"{"popsim": 1, "strategy": "fg", "state": {"n": 3}, "popups": {"a": {"when": "\#(chain)"}}, "events": [{"at": 0, "enqueue": "a"}]}"#
        let output = try runPopsim(["run", "-"], stdin: text)
        #expect(output.status == 2)
        #expect(output.stderr == "-:1:10075: popups.a.when: more than 1000 operands joined by '&&'\n")
        let fine = Array(repeating: "n == 3", count: 1000).joined(separator: " || ")
        let ok = try runPopsim(["run", "-", "--quiet"], stdin: #"{"popsim": 1, "strategy": "fg", "state": {"n": 3}, "popups": {"a": {"when": "\#(fine)"}}, "events": [{"at": 0, "enqueue": "a"}]}"#)
        #expect(ok.status == 0 && ok.stdout.contains("0  show     a\n"))
    }

    @Test func hugeColumnsAreClamped() throws {
        let output = try runPopsim(["run", "Scenarios/jc-article-demo.json", "--format", "gantt"], environment: ["COLUMNS": "9223372036854775807"])
        #expect(output.status == 0)
        #expect(output.stdout.split(separator: "\n").allSatisfy { $0.count <= 1000 })
    }

    @Test func genArgumentsAreBounded() throws {
        var output = try runPopsim(["gen", "--events", "9223372036854775807"])
        #expect(output.status == 2 && output.stderr == "popsim: gen: --events: expected an integer from 0 to 100000000, got \"9223372036854775807\"\n")
        output = try runPopsim(["gen", "--popups", "9223372036854775807"])
        #expect(output.status == 2 && output.stderr == "popsim: gen: --popups: expected an integer from 1 to 1000000, got \"9223372036854775807\"\n")
    }

    /// `--output` onto a device writes it; it is never replaced by a regular file.
    @Test func outputOntoADeviceWritesTheDevice() throws {
        let output = try runPopsim(["run", "Scenarios/fg-clear.json", "--output", "/dev/null"])
        #expect(output.status == 0 && output.stderr == "")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        let full = try runPopsim(["run", "Scenarios/fg-clear.json", "--output", "/dev/full"])
        #expect(full.status == 2 && full.stderr == "/dev/full: cannot write: No space left on device\n")
    }

    /// Through a symlink the target is written; an existing file keeps its mode.
    @Test func outputFollowsSymlinksAndKeepsTheMode() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = try file("target.txt", "old", in: dir)
        chmod(target, 0o600)
        let link = dir.appendingPathComponent("link.txt").path
        #expect(symlink("target.txt", link) == 0)
        let output = try runPopsim(["run", "Scenarios/fg-clear.json", "--output", link])
        #expect(output.status == 0)
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("fg clear · fg"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.txt", "target.txt"])
    }

    @Test func aFailedWriteToStandardOutputIsAnError() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(popsimExecutable().path)' strategies > /dev/full"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(String(decoding: data, as: UTF8.self) == "popsim: cannot write to standard output: No space left on device\n")
    }

    /// A signal while the output is being written leaves no temporary file and exits 128+signal.
    @Test func aSignalLeavesNoTemporaryFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = popsimExecutable()
        process.arguments = ["run", fifo, "--output", dir.appendingPathComponent("out.txt").path]
        try process.run()
        // popsim makes its temporary file, then blocks reading the FIFO: stop it there.
        var waited = 0
        while waited < 500, !(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasPrefix(".popsim-") }) {
            usleep(10_000)
            waited += 1
        }
        usleep(300_000)  // past the instant between making the file and noting it for removal
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["in.json"])
    }

    @Test func updateRefusesStandardInput() throws {
        let output = try runPopsim(["run", "-", "--update"], stdin: "{}")
        #expect(output.status == 2)
        #expect(output.stderr == "popsim: run: --update writes a golden beside each scenario file; - (standard input) has none\n")
    }

    /// check DIR: a FIFO named *.json is reported, never opened; links to folders are not
    /// followed (no endless walk); a golden that is a folder is an error, not "missing".
    @Test func checkWalksFoldersSafely() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("f.json").path, 0o600) == 0)
        #expect(symlink(".", dir.appendingPathComponent("a").path) == 0)
        #expect(symlink(".", dir.appendingPathComponent("b").path) == 0)
        _ = try file("s.json", #"{"popsim": 1, "strategy": "fg", "popups": {"x": {}}, "events": [{"at": 0, "enqueue": "x"}]}"#, in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("s.fg.timeline"), withIntermediateDirectories: false)
        let output = try runPopsim(["check", dir.path, "--timeout", "20"])
        #expect(output.status == 2)
        #expect(output.stdout == "SKIP: \(dir.path)/f.json (not a regular file)\nFAIL: \(dir.path)/s.json [fg]\n0 passed, 1 failed, 1 skipped\n")
        #expect(output.stderr == "\(dir.path)/s.fg.timeline: cannot read: not a regular file\n")
    }

    /// Names and paths from a file cannot send escape sequences, bells or bidi controls.
    @Test func controlCharactersAreEscapedInHumanFormats() throws {
        let text = #"{"popsim": 1, "name": "evil\u001b]0;pwned\u0007\u202etitle", "strategy": "fg", "state": {"screen": "x"}, "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}, {"at": 1, "push": "s\u001b[2J\n"}]}"#
        for format in ["text", "gantt"] {
            let output = try runPopsim(["run", "-", "--format", format], stdin: text)
            #expect(output.status == 0)
            #expect(!output.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
            #expect(output.stdout.hasPrefix(#"evil\u{1B}]0;pwned\u{7}\u{202E}title"#))
        }
        let compare = try runPopsim(["compare", "-", "--strategy", "fg", "--strategy", "ssp"], stdin: text)
        #expect(!compare.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        let bad = try runPopsim(["run", "-"], stdin: #"{"popsim": 1, "popups": {"x\u001b[2J": {}}}"#)
        #expect(bad.stderr == #"-:1:26: popups["x\u001b[2J"]: "x\u001b[2J" is not a valid name: use letters, digits, '_', '-', '.' or ':', starting with a letter, digit or '_'"# + "\n")
    }

    @Test func aHugeNumberIsShortenedInItsMessage() throws {
        let digits = String(repeating: "9", count: 100_000)
        let output = try runPopsim(["run", "-"], stdin: #"{"popsim": 1, "until": "# + digits + "}")
        #expect(output.status == 2)
        #expect(output.stderr == "-:1:24: until: expected an integer >= 0 (at most 9223372036854775807), got \(String(repeating: "9", count: 40))… (100000 characters)\n")
    }

    /// Near-miss unknown ids among long names: every error gets its hint (the search was
    /// quadratic and took 32 s for 400 events); a state name misspelt in a condition too.
    @Test func didYouMeanStaysBoundedAndCorrect() throws {
        let names = (0..<400).map { i in "popup_" + String(repeating: "abcdefghij", count: 5) + String(i) }
        let popups = names.map { #""\#($0)": {}"# }.joined(separator: ",")
        let events = names.indices.map { #"{"at": \#($0), "enqueue": "\#(names[$0].replacingOccurrences(of: "popup_", with: "popup-"))"}"# }.joined(separator: ",")
        let output = try runPopsim(["run", "-"], stdin: #"{"popsim": 1, "popups": {\#(popups)}, "events": [\#(events)]}"#)
        #expect(output.status == 2 && output.stdout == "")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 400)
        #expect(lines.first == #"-:1:26350: events[0].enqueue: unknown popup "popup-abcdefghijabcdefghijabcdefghijabcd…"; did you mean 'popup_abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij0'?"#)
        #expect(zip(lines, names).allSatisfy { $0.hasSuffix("; did you mean '\($1)'?") })
        let state = try runPopsim(["run", "-"], stdin: #"{"popsim": 1, "state": {"screenName": "home"}, "popups": {"a": {"when": "scrrenName == 'home'"}}, "events": []}"#)
        #expect(state.status == 2)
        #expect(state.stderr == "-:1:74: popups.a.when: unknown state name \"scrrenName\"; did you mean 'screenName'?\n")
    }

    /// A 200-byte scenario that feeds itself until 9,900,000 ms wrote 653 MB and took 568 MB: the
    /// timeline's length is bounded (`--max-lines`), with a located message, for run and compare.
    @Test func theTimelineIsBoundedByMaxLines() throws {
        let text = #"{"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0}, "until": 9900000, "popups": {"loop": {"respond": {"after": 1}, "then": {"close": [{"enqueue": "loop"}]}}}, "events": [{"at": 0, "enqueue": "loop"}]}"#
        let run = try runPopsim(["run", "-", "--max-lines", "3000"], stdin: text)
        #expect(run.status == 2 && run.stdout == "")
        #expect(run.stderr == "-: the timeline grew past 3000 lines (at 1000 ms) (raise the limit with --max-lines)\n")
        let compare = try runPopsim(["compare", "-", "--strategy", "jc-fifo", "--strategy", "fg", "--max-lines", "3000"], stdin: text)
        #expect(compare.status == 2 && compare.stdout == "")
        #expect(compare.stderr == run.stderr)
        let raised = try runPopsim(["run", "-", "--max-lines", "3000", "--option", "showMs=10"], stdin: text.replacingOccurrences(of: "9900000", with: "5000"))
        #expect(raised.status == 0)
    }

    /// A FIFO named on the command line is read like standard input: popsim waits for its writer,
    /// and `--timeout` ends the wait (it blocked forever before the guard was armed).
    @Test func aFifoWithoutWriterEndsAtTheTimeout() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = try runPopsim(["run", fifo, "--timeout", "1"])
        #expect(output.status == 2 && output.stdout == "")
        #expect(output.stderr == "popsim: timed out after 1 s (raise or disable the limit with --timeout)\n")
        // When the timeout ends a multi-file run, what was finished is printed: the first file's
        // report and the second's error, before the timeout's line.
        let good = try file("good.json", #"{"popsim": 1, "strategy": "fg", "popups": {"x": {}}, "events": [{"at": 0, "enqueue": "x"}]}"#, in: dir)
        let bad = try file("bad.json", "{", in: dir)
        let several = try runPopsim(["run", good, bad, fifo, "--timeout", "1", "--format", "json"])
        #expect(several.status == 2)
        #expect(several.stdout.contains(#""strategy": "fg""#))
        #expect(several.stderr == "\(bad):1:2: expected a string key, got the end of the file\npopsim: timed out after 1 s (raise or disable the limit with --timeout)\n")
    }
}
