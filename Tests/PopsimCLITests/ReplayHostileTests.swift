import Foundation
import Testing
import PopsimTestSupport
@testable import PopsimCore

/// The fourth round of hostile input against `replay` (issue 41): what an outsider controls — user
/// ids, event names, the trace's path, its bytes — never reaches a terminal or a job summary raw,
/// never grows memory without a bound, never writes outside the named output.
@Suite("replay: hostile input, fourth round")
struct ReplayHostileTests {
    static let catalog = #"{"popsim": 1, "popups": {"a": {"duration": 1000}}, "expect": ["never shown a"]}"#

    /// User ids with ESC sequences, BEL, a bidi override, a forged line and HTML: the text report
    /// shows them escaped, the Markdown one escaped and inert.
    @Test func userIdsAreNeverWrittenRaw() throws {
        let dir = try temporaryDirectory()
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let ids = ["\u{1B}]0;owned\u{07}", "x\u{202E}gnp.exe", "u\r\nFAKE: all good", "<script>alert(1)</script>"]
        var lines = ""
        for (k, id) in ids.enumerated() {
            let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [id], options: [.fragmentsAllowed]), as: UTF8.self).dropFirst().dropLast()
            lines += #"{"user": \#(quoted), "time": \#(k), "action": "enqueue", "popup": "a"}"# + "\n"
        }
        try lines.write(to: dir.appendingPathComponent("t.jsonl"), atomically: true, encoding: .utf8)
        let text = try runPopsim(["replay", "t.jsonl", "--catalog", "c.json", "--strategy", "fg"], in: dir)
        #expect(text.status == 0)
        for bad in ["\u{1B}", "\u{07}", "\u{202E}", "\r", "\nFAKE"] { #expect(!text.stdout.contains(bad), "\(bad.unicodeScalars.map(\.value))") }
        #expect(text.stdout.contains(#"\u{1B}]0;owned\u{7} (row 1)"#))
        #expect(text.stdout.contains(#"x\u{202E}gnp.exe (row 2)"#))
        #expect(text.stdout.contains(#"u\r\nFAKE: all good (row 3)"#))
        let markdown = try runPopsim(["replay", "t.jsonl", "--catalog", "c.json", "--strategy", "fg", "--format", "markdown"], in: dir)
        #expect(!markdown.stdout.contains("<script>") && markdown.stdout.contains("&lt;script>alert(1)&lt;/script> (row 4)"))
        for bad in ["\u{1B}", "\u{07}", "\u{202E}", "\r"] { #expect(!markdown.stdout.contains(bad)) }
        // The trace's path too: a file name is the user's to choose.
        let odd = "t\u{1B}[2J.jsonl"
        try lines.write(to: dir.appendingPathComponent(odd), atomically: true, encoding: .utf8)
        let path = try runPopsim(["replay", odd, "--catalog", "c.json", "--strategy", "fg"], in: dir)
        #expect(path.stdout.hasPrefix(#"replay: t\u{1B}[2J.jsonl with c.json: "#))
    }

    /// A trace without line breaks (`/dev/zero`, one endless line) stops at 16 MiB of one record,
    /// exit 2 whatever `--max-errors` allows, instead of growing until memory runs out.
    @Test func aRecordWithoutEndStopsTheReading() throws {
        let dir = try temporaryDirectory()
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        for format in ["csv", "jsonl"] {
            let output = try runPopsim(["replay", "/dev/zero", "--catalog", "c.json", "--strategy", "fg", "--trace-format", format, "--max-errors", "100"],
                                       in: dir)
            #expect(output.status == 2)
            #expect(output.stderr == "/dev/zero:1:1: a record longer than 16 MiB without a line break: this is not a trace of rows (nothing after it is read)\n")
            #expect(output.stdout == "")
        }
    }

    /// `TMPDIR` is where temporary partitions go: one that names nothing, a file or a device is
    /// an error before any row is read; a folder is used (the trace partitions there and the
    /// report is the one made in memory).
    @Test func tmpdirIsWhereThePartitionsGo() throws {
        let dir = try temporaryDirectory()
        _ = try runPopsim(["gen", "--trace", "--users", "60", "--seed", "3", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        let base = ["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg"]
        for bad in ["/nonexistent-popsim", "/dev/null", dir.path + "/week.csv"] {
            let output = try runPopsim(base, in: dir, environment: ["TMPDIR": bad])
            #expect(output.status == 2 && output.stdout == "")
            #expect(output.stderr.hasPrefix(bad + ": cannot keep temporary partitions of the trace there (TMPDIR): "))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("big"), withIntermediateDirectories: true)
        let spilled = try runPopsim(base + ["--memory", "1M"], in: dir, environment: ["TMPDIR": dir.path + "/big"])
        let held = try runPopsim(base, in: dir)
        #expect(spilled.status == 0 && spilled.stdout == held.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/big").isEmpty)
    }

    /// `--save DIR` names its files after user ids (an outsider's): a link planted under such a
    /// name is never followed (exit 2, the file it points to untouched); the root is refused.
    @Test func saveNeverWritesThroughALink() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        try "precious\n".write(to: dir.appendingPathComponent("precious.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out/1-u1.jc-lifo.json", withDestinationPath: dir.path + "/precious.txt")
        let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "jc-lifo", "--save", "out"], in: dir)
        #expect(output.status == 2)
        #expect(output.stderr == "out/1-u1.jc-lifo.json: cannot save a user there: it is a link (--save writes only regular files of its folder)\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("precious.txt"), encoding: .utf8) == "precious\n")
        let root = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "jc-lifo", "--save", "//"], in: dir)
        #expect(root.status == 2 && root.stderr == "popsim: replay: --save: expected a folder for the saved users, not the root of the file system\n")
    }

    /// `--save` never writes a saved user over one of the command's inputs, and a stash of
    /// disagreeing users that cannot be kept stops the replay before any user is saved (issue 66,
    /// cause 5).
    @Test func saveNeverReplacesAnInputNorSavesHalf() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        // The catalog is named as the first saved user would be.
        let catalog = dir.appendingPathComponent("out/1-u1.jc-lifo.json")
        try ReplayTests.catalog.write(to: catalog, atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let output = popsimInProcess(["replay", dir.appendingPathComponent("t.csv").path, "--catalog", catalog.path, "--strategy", "jc-lifo",
                                      "--save", dir.appendingPathComponent("out").path])
        #expect(output.status == 2)
        #expect(output.stderr == "\(catalog.path): cannot save a user there: it is one of the command's inputs (--save never replaces one)\n", "\(output.stderr)")
        #expect(try String(contentsOf: catalog, encoding: .utf8) == ReplayTests.catalog)
        // A file-size limit the stash of disagreeing users runs into: nothing saved, the stash named.
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        var rows = "user,time,action,popup,value\n"
        for u in 0..<200 { rows += "u\(u),100,enqueue,a,\nu\(u),100,enqueue,b,\nu\(u),100,shown,b,\n" }
        try rows.write(to: dir.appendingPathComponent("many.csv"), atomically: true, encoding: .utf8)
        let limited = try runProcess(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "ulimit -f 8; exec '\(popsimExecutable().path)' replay many.csv --catalog c.json --strategy jc-lifo --save saved"],
                                     in: dir, environment: ["TMPDIR": dir.path])
        #expect(limited.status == 2, "\(limited.stderr)")
        #expect(limited.stderr.contains("cannot keep the users who disagree with production until the replay ends (a temporary file)"), "\(limited.stderr)")
        #expect(!limited.stderr.contains("temporary partition of the trace"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("saved").path)) ?? []).isEmpty)
    }

    /// An output never replaces an input: `--output` naming the trace, the catalog, or a link or
    /// hard link to one is refused before anything runs; the file is untouched. `run`, `compare`,
    /// `check --junit` and `gen` alike.
    @Test func anOutputNeverReplacesAnInput() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link.csv", withDestinationPath: "t.csv")
        try FileManager.default.linkItem(atPath: dir.path + "/t.csv", toPath: dir.path + "/hard.csv")
        for (output, named) in [("t.csv", "one of its inputs"), ("link.csv", "t.csv, one of its inputs"), ("hard.csv", "t.csv, one of its inputs"),
                                ("c.json", "one of its inputs")] {
            let result = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--output", output], in: dir)
            #expect(result.status == 2)
            #expect(result.stderr == "popsim: replay: --output \(output) is \(named): writing the report there would replace it; name another file\n")
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("t.csv"), encoding: .utf8) == ReplayTests.trace)
        try #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#
            .write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        for args in [["run", "s.json", "--output", "s.json"], ["compare", "s.json", "--strategy", "fg", "--strategy", "jc-fifo", "--output", "s.json"],
                     ["check", "s.json", "--junit", "s.json"], ["gen", "--trace", "--catalog", "n.json", "--output", "n.json"]] {
            if args[0] == "gen" { try "{}".write(to: dir.appendingPathComponent("n.json"), atomically: true, encoding: .utf8) }
            let result = try runPopsim(args, in: dir)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr.contains("writing the report there would replace it"), "\(args)")
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("s.json"), encoding: .utf8).hasPrefix(#"{"popsim": 1"#))
        // A device is no clash.
        #expect(try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--output", "/dev/null"], in: dir).status == 0)
    }

    /// `--merge` takes only shards of one replay: the trace by its SHA-256 (a 64-bit hash was
    /// matched by two traces of one size), and the settings that make the figures — a policy's
    /// rules, `--max-steps`, `--max-errors`, how the trace is read — by theirs.
    @Test func mergeRefusesShardsOfAnotherReplay() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        try #"{"order": "lifo"}"#.write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try #"{"order": "fifo"}"#.write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        let base = ["replay", "t.csv", "--catalog", "c.json", "--strategy", "policy", "--format", "json"]
        func shard(_ i: Int, _ extra: [String], _ name: String) throws {
            let r = try runPopsim(base + ["--shard", "\(i)/2", "--output", name] + extra, in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        try shard(0, ["--policy", "a.json"], "s0.json")
        try shard(1, ["--policy", "a.json"], "s1.json")
        let same = try runPopsim(["replay", "--merge", "s0.json", "s1.json"], in: dir)
        #expect(same.status == 0)
        for (extra, what) in [(["--policy", "b.json"], "policy"), (["--policy", "a.json", "--max-steps", "99"], "max-steps"),
                              (["--policy", "a.json", "--max-errors", "3"], "max-errors")] {
            try shard(1, extra, "x1.json")
            let merged = try runPopsim(["replay", "--merge", "s0.json", "x1.json"], in: dir)
            #expect(merged.status == 2, "\(what)")
            #expect(merged.stderr.contains("x1.json was made with other settings than s0.json"), "\(what): \(merged.stderr)")
        }
        let digest = sha256Hex(Array(ReplayTests.trace.utf8))
        #expect(try String(contentsOf: dir.appendingPathComponent("s0.json"), encoding: .utf8).contains(#""digest": "sha256:\#(digest)""#))
    }

    /// A catalog whose popup feeds itself costs each user the budget its rows warrant (2,000
    /// lines and 200 a row; 4,000 steps and 400 a row), not `--max-lines`' 5,000,000: 100
    /// one-row users are each "did not settle" at 2,200 lines, the exit is 1, and the report is
    /// there (it ran 1.8 s a user until the timeout).
    @Test func aRunawayCatalogCostsEachUserItsRowsBudget() throws {
        let dir = try temporaryDirectory()
        try #"""
            {"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"loop": {"respond": {"after": 1}, "then": {"close": [{"enqueue": "loop"}]}}}}
            """#.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let rows = (0..<100).map { "u\($0),0,enqueue,loop," }.joined(separator: "\n")
        try ("user,time,action,popup,value\n" + rows + "\n").write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json"], in: dir)
        #expect(output.status == 1)
        #expect(output.stdout.contains("\ndid not settle      100\n"))
        #expect(Replayer.limits(RunLimits(), rows: 3).maxLines == 2_600 && Replayer.limits(RunLimits(), rows: 3).maxSteps == 5_200)
        var tight = RunLimits()
        tight.maxLines = 100
        #expect(Replayer.limits(tight, rows: 1_000_000).maxLines == 100)
        #expect(Replayer.limits(RunLimits(), rows: Int.max).maxLines == RunLimits().maxLines)
    }
}
