import Foundation
import Testing
import PopsimTestSupport
import PopsimCore
import PopsimReports

/// The fourth round of hostile input beyond `replay` (issue 41): CI logs, merges and the schema.
@Suite("hostile inputs, fourth round")
struct HostileInputRound4Tests {
    /// `check --format github` writes a scenario's path into a workflow command: its ESC, BEL and
    /// bidi override are made visible, never raw in the log; the command stays one line.
    @Test func githubAnnotationsCarryNoRawControls() throws {
        let dir = try temporaryDirectory()
        let name = "a\u{1B}]0;x\u{07}\u{202E}.json"
        try #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}], "expect": ["never shown a"]}"#
            .write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let output = try runPopsim(["check", name, "--format", "github"], in: dir)
        #expect(output.status == 1)
        let annotation = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("::error ") })
        for bad in ["\u{1B}", "\u{07}", "\u{202E}"] { #expect(!output.stdout.contains(bad)) }
        #expect(annotation.hasPrefix(#"::error file=a\u{1B}]0;x\u{7}\u{202E}.json,line=1,title="#))
    }

    /// `explore --merge` refuses a shard whose counts are negative (a forged `"failures": -N`
    /// would cancel another shard's failures and merge to "holds", exit 0).
    @Test func exploreMergeRefusesNegativeCounts() throws {
        let dir = try temporaryDirectory()
        let file = packageRoot.path + "/Scenarios/flow-wish-uncertain.json"
        var paths: [String] = []
        for i in 0..<2 {
            let shard = try runPopsim(["explore", file, "--strategy", "fg", "--format", "json", "--shard", "\(i)/2"], in: dir)
            paths.append(dir.path + "/s\(i).json")
            try shard.stdout.write(toFile: paths[i], atomically: true, encoding: .utf8)
        }
        let honest = try runPopsim(["explore", "--merge"] + paths, in: dir)
        #expect(honest.status == 1)
        // Each shard's failures made negative: together they would cancel the real ones.
        let text = try String(contentsOfFile: paths[1], encoding: .utf8)
        let forged = try Regex(#""failures": (\d+)"#)
        try text.replacing(forged) { m in "\"failures\": -\(m.output[1].substring ?? "0")" }.write(toFile: paths[1], atomically: true, encoding: .utf8)
        let merged = try runPopsim(["explore", "--merge"] + paths, in: dir)
        #expect(merged.status == 2)
        #expect(merged.stderr.contains("s1.json"))
    }

    /// `popsim schema` bounds every integer as the loader does (64-bit): no place in the schema
    /// lets an editor accept 2^63, which the loader refuses.
    @Test func theSchemasIntegersAreBounded() throws {
        let root = try JSONReader.parse(Array(ScenarioSchema.render().utf8))
        var integers = 0
        func walk(_ v: JSONValue) {
            switch v.kind {
            case .object(let members):
                let type = members.first { $0.key == "type" }?.value
                let isInteger: Bool
                switch type?.kind {
                case .string(let t)?: isInteger = t == "integer"
                case .array(let ts)?: isInteger = ts.contains { if case .string("integer") = $0.kind { return true } else { return false } }
                default: isInteger = false
                }
                if isInteger {
                    integers += 1
                    let maximum = members.first { $0.key == "maximum" }?.value
                    if case .number(let n)? = maximum?.kind { #expect(n.integer == Int.max, "\(n.text)") } else { Issue.record("no maximum at \(v.location)") }
                    #expect(members.contains { $0.key == "minimum" }, "no minimum at \(v.location)")
                }
                for m in members { walk(m.value) }
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        walk(root)
        #expect(integers >= 10)
        let file = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "until": 9223372036854775808}"#
        guard case .failure = ScenarioLoader.load(Array(file.utf8), file: "s.json", catalog: StrategyRegistry.catalog) else {
            Issue.record("the loader took 2^63")
            return
        }
    }

    /// Four small ones (item 14): a CSV trace with a UTF-8 byte order mark reads; a swept name no
    /// strategy has is an error with the closest one, not a silent baseline; with standard input
    /// closed, `replay -` reads nothing rather than the catalog; a `.popsim.json` that is a folder
    /// is said to be unreadable, not missing.
    @Test func fourSmallOnes() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try ("\u{FEFF}" + ReplayTests.trace).write(to: dir.appendingPathComponent("bom.csv"), atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let bom = try runPopsim(["replay", "bom.csv", "--catalog", "c.json"], in: dir)
        let plain = try runPopsim(["replay", "t.csv", "--catalog", "c.json"], in: dir)
        #expect(bom.status == 0 && bom.stdout.split(separator: "\n").dropFirst() == plain.stdout.split(separator: "\n").dropFirst())

        let typo = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "policy", "--sweep", "cooldwnMs=0,1000"], in: dir)
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("popsim: replay: --sweep \"cooldwnMs\": no strategy of the replay has that option (did you mean \"cooldownMs\"?)"))

        let closed = Process()
        closed.executableURL = URL(fileURLWithPath: "/bin/sh")
        closed.arguments = ["-c", "'\(popsimExecutable().path)' replay - --catalog c.json <&- 2>err.txt; echo $? > rc.txt"]
        closed.currentDirectoryURL = dir
        try closed.run()
        closed.waitUntilExit()
        #expect(try String(contentsOf: dir.appendingPathComponent("rc.txt"), encoding: .utf8) == "2\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)
                == "-:1:1: the trace is empty: expected a header row, like user,time,action,popup,value\n")

        try FileManager.default.createDirectory(at: dir.appendingPathComponent("p/.popsim.json"), withIntermediateDirectories: true)
        try #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#
            .write(to: dir.appendingPathComponent("p/s.json"), atomically: true, encoding: .utf8)
        try "golden\n".write(to: dir.appendingPathComponent("p/s.exec-m.timeline"), atomically: true, encoding: .utf8)
        let check = try runPopsim(["check", "p/s.json", "--strategy", "fg", "--update"], in: dir)
        #expect(check.status == 0)
        let project = try runPopsim(["check", "p/s.json"], in: dir)
        #expect(project.status == 1)
        #expect(project.stdout.contains("p/s.exec-m.timeline names plug-in 'm', but the project file cannot be read: p/.popsim.json: cannot read it: it is a folder"))
    }

    /// `check` reads a `.popsim.json` of 10,000 entries in one pass (each stem looked up once;
    /// 4,000 entries took 15 s) and still refuses two entries of one stem.
    @Test func aLargeProjectFileIsLinear() throws {
        let dir = try temporaryDirectory()
        let entries = (0..<10_000).map { "\"plugins/p\($0).py\"" }.joined(separator: ", ")
        try #"{"popsimProject": 1, "plugins": [\#(entries)]}"#.write(to: dir.appendingPathComponent(".popsim.json"), atomically: true, encoding: .utf8)
        try #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#
            .write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try "x\n".write(to: dir.appendingPathComponent("s.exec-p9999.timeline"), atomically: true, encoding: .utf8)
        let listed = try runPopsim(["check", "s.json"], in: dir)
        #expect(listed.stdout.contains("s.json [exec-p9999]"), "\(listed.stdout)")
        try #"{"popsimProject": 1, "plugins": ["a/x.py", "b/x.py"]}"#.write(to: dir.appendingPathComponent(".popsim.json"), atomically: true, encoding: .utf8)
        let twice = try runPopsim(["check", "s.json"], in: dir)
        #expect(twice.stdout.contains("a file stem no other entry has"), "\(twice.stdout)")
    }

    /// `--jobs` of any size is clamped (to 1,024 for `check` and `explore`, 64 for `replay`):
    /// nothing sized by it overflows or runs out of memory.
    @Test func hugeJobCountsAreClamped() throws {
        for jobs in ["2251799813685248", "9223372036854775807"] {
            let check = try runPopsim(["check", "Scenarios/jc-burst-of-three.json", "--jobs", jobs])
            #expect(check.status == 0, "\(check.stderr)")
            let explore = try runPopsim(["explore", "Scenarios/flow-wish-uncertain.json", "--strategy", "fg", "--budget", "20", "--jobs", jobs])
            #expect(explore.status == 1 && explore.stderr == "", "\(explore.stderr)")
        }
    }
}
