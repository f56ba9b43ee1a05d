import Foundation
import Testing
import PopsimTestSupport

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
}
