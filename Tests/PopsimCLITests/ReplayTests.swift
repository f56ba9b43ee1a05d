import Foundation
import Testing
import PopsimTestSupport

/// `replay`: a hand-made trace whose per-user timelines are known gives exact aggregates; the
/// same bytes for any `--jobs`, any order of the users' rows and any shard split merged back;
/// production agreement; every bad input a located error with nothing written.
@Suite("replay", .serialized)
struct ReplayTests {
    static let catalog = #"""
        {"popsim": 1, "strategy": "fg",
         "popups": {"a": {"priority": 10, "duration": 1000, "then": {"ok": []}}, "b": {"priority": 5, "duration": 1000}},
         "expect": ["wait b <= 500"]}
        """#
    /// u1: a and b at 100; production showed a, the user answered 300 ms later, then b.
    /// u2: b, shown at once. u3: a, then b 10 ms later; production showed nothing.
    static let trace = """
        user,time,action,popup,value
        u1,100,enqueue,a,
        u2,0,enqueue,b,
        u1,100,enqueue,b,
        u3,50,enqueue,a,
        u1,100,shown,a,
        u2,0,shown,b,
        u1,400,dismissed,a,ok
        u1,400,shown,b,
        u3,60,enqueue,b,

        """

    /// Line `line` of a CSV report (0: the header), each field under its column's name.
    static func csvFields(_ csv: String, line: Int) -> [String: String] {
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard line < lines.count else { return [:] }
        return Dictionary(zip(lines[0], lines[line]), uniquingKeysWith: { a, _ in a })
    }

    func folder() throws -> URL {
        let dir = try temporaryDirectory()
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try Self.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func aHandMadeTraceGivesExactFigures() throws {
        let dir = try folder()
        let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--strategy", "jc-lifo"], in: dir)
        #expect(output.stderr == "")
        #expect(output.status == 0)
        // fg: u1's answer (300 ms after a appeared) hides a at 300, b shows then (wait 300);
        // u3's b waits for a's 1000 ms (990). Waits 0, 0, 0, 300, 990: p90 is 990's bucket, 988.
        // Production's own rows are judged too: u3's b was never shown (wait b fails for u3), and
        // fg's waits lie 158 ms from production's 0, 300, 0 on average (the earth mover's distance).
        #expect(output.stdout == """
            replay: t.csv with c.json: 3 users, 9 rows

                                              production          fg     jc-lifo
            users                                      3           3           3
            requests                                   5           5           5
            shown                              3 (60.0%)  5 (100.0%)  5 (100.0%)
            lost                                       -           0           0
            overlaps                                   0           0           0
            pending at end                             -           0           0
            wait p50 (ms)                              0           0           0
            wait p90 (ms)                            300         988         600
            wait p99 (ms)                            300         988         600
            wait max (ms)                            300         990         600
            wait distance (ms)                         -         158         138
            most on screen                             1           1           1
            fails: wait b <= 500               33.3% (1)   33.3% (1)   66.7% (2)
            fails per request: wait b <= 500   33.3% (1)   33.3% (1)   66.7% (2)
            agrees with production                     -   66.7% (2)   33.3% (1)
            agrees in timing                           -   66.7% (2)   33.3% (1)

            first users where it fails (by first row):
              fg: wait b <= 500: u3 (row 4)
              fg: agrees with production: u3 (row 4)
              jc-lifo: wait b <= 500: u1 (row 1), u3 (row 4)
              jc-lifo: agrees with production: u1 (row 1), u3 (row 4)

            """)
    }

    /// A `wait` property is also judged over its popup's requests, a dropped one failing: here
    /// b expires unseen (`ttlMs`), so no user fails `wait b <= 5000` (a dropped request is not a
    /// wait) while every request of b does — a rule that drops more cannot look better.
    @Test func aDroppedRequestFailsItsWaitOverRequests() throws {
        let dir = try folder()
        try write(#"""
            {"popsim": 1, "popups": {"a": {"duration": 1000}, "b": {"duration": 1000, "ttlMs": 500}}, "expect": ["wait b <= 5000"]}
            """#, "d.json", in: dir)
        try write("user,time,action,popup,value\nu,0,enqueue,a,\nu,0,enqueue,b,\nv,0,enqueue,b,\n", "d.csv", in: dir)
        let output = try runPopsim(["replay", "d.csv", "--catalog", "d.json", "--strategy", "policy", "--format", "csv"], in: dir)
        #expect(output.status == 0)
        let rows = output.stdout.split(separator: "\n")
        let header = rows[0].split(separator: ",", omittingEmptySubsequences: false), whole = rows[1].split(separator: ",", omittingEmptySubsequences: false)
        let cells = Dictionary(uniqueKeysWithValues: zip(header.map(String.init), whole.map(String.init)))
        #expect(cells["dropped: expired"] == "1")
        #expect(cells["fails: wait b <= 5000"] == "0.0% (0)")
        #expect(cells["fails per request: wait b <= 5000"] == "50.0% (1)")
    }

    func write(_ text: String, _ name: String, in dir: URL) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test func theSameRowsGroupedGiveTheSameReport() throws {
        let dir = try folder()
        let rows = Self.trace.split(separator: "\n").dropFirst()
        let grouped = "user,time,action,popup,value\n" + ["u1", "u2", "u3"].flatMap { u in rows.filter { $0.hasPrefix(u + ",") } }
            .joined(separator: "\n") + "\n"
        try grouped.write(to: dir.appendingPathComponent("g.csv"), atomically: true, encoding: .utf8)
        let a = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "all", "--format", "csv"], in: dir)
        let b = try runPopsim(["replay", "g.csv", "--catalog", "c.json", "--strategy", "all", "--format", "csv", "--grouped"], in: dir)
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.contains("\nsonner,,,3,5,"))
        // --grouped refuses a trace whose users come back.
        let c = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--grouped"], in: dir)
        #expect(c.status == 2)
        #expect(c.stderr == "t.csv:4:1: expected the rows of user \"u1\" together (--grouped), got another row of it after other users' (leave out --grouped)\n")
    }

    /// A known truth to fit (issue 44): production's rows under a policy file, or a plug-in;
    /// replayed under the same rules every user agrees, under another not. A plug-in that fails
    /// stops gen with its words and no trace written; `--policy` without `--trace` is refused.
    @Test func aTraceIsMadeUnderAPolicyFileOrAPlugin() throws {
        let dir = try temporaryDirectory()
        let policy = #"{"order": "priority+fifo", "slots": 2, "cooldownMs": 3000, "lifetimeCap": 2}"#
        try policy.write(to: dir.appendingPathComponent("truth.json"), atomically: true, encoding: .utf8)
        let gen = try runPopsim(["gen", "--trace", "--users", "200", "--seed", "5", "--policy", "truth.json", "--catalog", "app.json",
                                 "--output", "week.csv"], in: dir)
        #expect(gen.status == 0 && gen.stderr == "")
        func agreement(_ extra: [String]) throws -> String? {
            let csv = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--format", "csv"] + extra, in: dir)
            let lines = csv.stdout.split(separator: "\n")
            guard let i = lines.first?.split(separator: ",").firstIndex(of: "agrees with production"), lines.count > 2 else { return nil }
            return String(lines[2].split(separator: ",", omittingEmptySubsequences: false)[i])
        }
        #expect(try agreement(["--policy", "truth.json", "--strategy", "policy"]) == "100.0% (200)")
        #expect(try agreement(["--strategy", "fg"]) != "100.0% (200)")
        let plugin = packageRoot.appendingPathComponent("Examples/plugins/notistack.py").path
        let byPlugin = try runPopsim(["gen", "--trace", "--users", "60", "--seed", "5", "--strategy", "exec:" + plugin, "--catalog", "app.json",
                                      "--force", "--output", "ns.csv"], in: dir)
        #expect(byPlugin.status == 0)
        let builtIn = try runPopsim(["gen", "--trace", "--users", "60", "--seed", "5", "--strategy", "notistack"], in: dir)
        #expect(try String(contentsOf: dir.appendingPathComponent("ns.csv"), encoding: .utf8) == builtIn.stdout)
        try "#!/bin/sh\necho 'no config' >&2\nexit 3\n".write(to: dir.appendingPathComponent("dies.sh"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent("dies.sh").path)
        let dies = try runPopsim(["gen", "--trace", "--users", "5", "--strategy", "exec:./dies.sh", "--catalog", "app.json", "--force",
                                  "--output", "dead.csv"], in: dir)
        #expect(dies.status == 2)
        #expect(dies.stderr == "plug-in exec:./dies.sh: it exited with status 3 before its handshake (its stderr: no config)\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("dead.csv").path))
        // Neither the trace nor the catalog replaces what gen reads.
        let overTruth = try runPopsim(["gen", "--trace", "--users", "5", "--policy", "truth.json", "--output", "truth.json"], in: dir)
        #expect(overTruth.status == 2 && overTruth.stderr.hasPrefix("popsim: gen: --output truth.json is one of its inputs"))
        let catalogOverTruth = try runPopsim(["gen", "--trace", "--users", "5", "--policy", "truth.json", "--catalog", "truth.json", "--force"], in: dir)
        #expect(catalogOverTruth.status == 2 && catalogOverTruth.stderr.hasPrefix("popsim: gen: --catalog truth.json is one of its inputs"))
        #expect(try String(contentsOf: dir.appendingPathComponent("truth.json"), encoding: .utf8) == policy)
        let stray = try runPopsim(["gen", "--policy", "truth.json"], in: dir)
        #expect(stray.status == 2)
        #expect(stray.stderr == "popsim: gen: --policy goes with --trace (production's rows); a scenario only names its strategy\n")
    }

    /// Under a strategy that makes instances (`Saved#2`), production's rows name the popup: the
    /// trace still agrees with its own strategy on every user (it agreed with 89.7 % of 2,000
    /// users under entrykit while an instance's shows were left out of the rows).
    @Test(arguments: ["entrykit", "notistack"])
    func aGeneratedTraceOfInstancesAgreesWithItsOwnStrategy(_ strategy: String) throws {
        let dir = try temporaryDirectory()
        let gen = try runPopsim(["gen", "--trace", "--users", "300", "--seed", "3", "--strategy", strategy, "--catalog", "app.json",
                                 "--output", "week.csv"], in: dir)
        #expect(gen.status == 0)
        let week = try String(contentsOf: dir.appendingPathComponent("week.csv"), encoding: .utf8)
        #expect(!week.contains("#"))
        let csv = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--strategy", strategy, "--format", "csv"], in: dir)
        let lines = csv.stdout.split(separator: "\n")
        let agree = lines[0].split(separator: ",").firstIndex(of: "agrees with production")
        #expect(agree.map { lines[2].split(separator: ",", omittingEmptySubsequences: false)[$0] } == "100.0% (300)")
    }

    @Test func aGeneratedTraceAgreesWithItsOwnStrategyAndMergesByteForByte() throws {
        let dir = try temporaryDirectory()
        let gen = try runPopsim(["gen", "--trace", "--users", "200", "--seed", "3", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        #expect(gen.status == 0)
        let base = ["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--strategy", "jc-lifo", "--format", "json"]
        let one = try runPopsim(base + ["--jobs", "1"], in: dir)
        let two = try runPopsim(base + ["--jobs", "2"], in: dir)
        #expect(one.status == 0)
        #expect(one.stdout == two.stdout)
        #expect(one.stdout.contains(#""label": "fg", "users": 200"#) || one.stdout.contains(#""label": "fg""#))
        let csv = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--strategy", "jc-lifo", "--format", "csv"], in: dir)
        let lines = csv.stdout.split(separator: "\n")
        let agree = lines[0].split(separator: ",").firstIndex(of: "agrees with production")
        let fg = lines[2].split(separator: ",", omittingEmptySubsequences: false)
        let lifo = lines[3].split(separator: ",", omittingEmptySubsequences: false)
        #expect(agree.map { fg[$0] } == "100.0% (200)")
        #expect(agree.map { lifo[$0] } != "100.0% (200)")
        var shards: [String] = []
        for i in 0..<3 {
            let name = "s\(i).json"
            let s = try runPopsim(base + ["--shard", "\(i)/3", "--output", name], in: dir)
            #expect(s.status == 0)
            shards.append(name)
        }
        let merged = try runPopsim(["replay", "--merge", "--format", "json"] + shards.reversed(), in: dir)
        #expect(merged.status == 0)
        #expect(merged.stdout == one.stdout)
        let text = try runPopsim(["replay", "--merge"] + shards, in: dir)
        let whole = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--strategy", "jc-lifo"], in: dir)
        #expect(text.stdout == whole.stdout)
        // Per popup too: the JSON holds every popup's columns, and the merged tables are the whole's.
        #expect(one.stdout.contains("\n  \"groups\": [\n    {\n      \"by\": \"popup\",\n      \"name\": \"upgrade\",\n      \"properties\": [0, 2],\n      \"columns\": [\n"))
        for format in ["text", "markdown"] {
            let byPopup = try runPopsim(["replay", "--merge", "--by", "popup", "--format", format] + shards, in: dir)
            let wholeByPopup = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--strategy", "jc-lifo",
                                              "--by", "popup", "--format", format], in: dir)
            #expect(byPopup.status == 0 && byPopup.stdout == wholeByPopup.stdout)
            #expect(byPopup.stdout.contains(format == "text" ? "\nby popup (those requested):\n\nupgrade " : "\n### popup upgrade\n\n| figure | production | fg | jc-lifo |\n"))
        }
        let badBy = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--by", "screen"], in: dir)
        #expect(badBy.status == 2 && badBy.stdout == "")
        #expect(badBy.stderr == "popsim: replay: --by: expected one of popup, level, key, or one and :NAME,… for some of its groups; got \"screen\"\n")
        let badName = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--by", "popup:upgrad"], in: dir)
        #expect(badName.status == 2 && badName.stdout == "")
        #expect(badName.stderr == "popsim: replay: --by popup:…: no popup \"upgrad\" in the catalog (did you mean \"upgrade\"?)\n")
        let missing = try runPopsim(["replay", "--merge", "s0.json", "s1.json"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr == "popsim: replay: --merge: shard 2/3 is missing\n")
        let twice = try runPopsim(["replay", "--merge", "s0.json", "s0.json", "s2.json"], in: dir)
        #expect(twice.stderr == "popsim: replay: --merge: s0.json and s0.json are both shard 0/3\n")
    }

    @Test func badInputIsLocatedAndWritesNothing() throws {
        let dir = try folder()
        let cases: [(String, String)] = [
            ("user,time,action,popup,value\nu1,0,enqueue,c,\n", "bad.csv:2:14: unknown popup \"c\""),
            ("user,time,action,popup,value\nu1,0,enqeue,a,\n", "bad.csv:2:6: expected one of enqueue, dismiss, press, set, suspend, resume, trigger, remove, clear, clearQueue, clearScreen, clearUpTo, push, pop, popToRoot, popTo, replace, pauseTimers, resumeTimers, shown, dismissed, dropped; got \"enqeue\"; did you mean 'enqueue'?"),
            ("user,time,action,popup,value\nu1,10,enqueue,a,\nu1,5,enqueue,b,\n", "bad.csv:3:4: expected a time no earlier than user \"u1\"\'s rows before it, got 5"),
            ("user,time,action,popup,value\nu1,1.5,enqueue,a,\n", "bad.csv:2:4: expected a time in integer milliseconds (other units: --time-unit s or iso8601), got \"1.5\""),
            ("uid,time,action\nu1,0,enqueue\n", "bad.csv:1:1: expected a column named 'user' in the header (or --columns user=NAME), got \"uid\", \"time\", \"action\""),
            ("user,time,action,popup,value\nu1,0,\"enqueue,a\n", "bad.csv:2:1: a quoted field is not closed before the end of the trace"),
        ]
        for (text, error) in cases {
            try text.write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
            let output = try runPopsim(["replay", "bad.csv", "--catalog", "c.json", "--output", "out.txt"], in: dir)
            #expect(output.status == 2, "\(error)")
            #expect(output.stderr == error + "\n")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.txt").path))
        }
        let withEvents = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#
        try withEvents.write(to: dir.appendingPathComponent("e.json"), atomically: true, encoding: .utf8)
        let e = try runPopsim(["replay", "t.csv", "--catalog", "e.json"], in: dir)
        #expect(e.status == 2)
        #expect(e.stderr == "e.json:1:65: events: 'events' is not allowed here: a catalog has no events: the trace gives each user's\n")
        // --max-errors: the bad rows' users are left out and counted, the others replayed.
        try "user,time,action,popup,value\nu1,0,enqueue,c,\nu2,0,enqueue,a,\n".write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let kept = try runPopsim(["replay", "bad.csv", "--catalog", "c.json", "--max-errors", "1"], in: dir)
        #expect(kept.status == 0)
        #expect(kept.stderr == "bad.csv:2:14: unknown popup \"c\"\n")
        #expect(kept.stdout.hasPrefix("replay: bad.csv with c.json: 1 users, 2 rows; 1 bad rows skipped with their 1 users\n"))
    }

    @Test func jsonLinesAndTimeUnitsReadTheSameTrace() throws {
        let dir = try folder()
        let jsonl = """
            {"uid": "u1", "ts": "2026-11-20T08:00:00.100Z", "action": "enqueue", "popup": "a"}
            {"uid": "u1", "ts": "2026-11-20T09:00:00.100+01:00", "action": "enqueue", "popup": "b"}
            {"uid": "u1", "ts": "2026-11-20T08:00:00.100Z", "action": "shown", "popup": "a"}

            """
        try jsonl.write(to: dir.appendingPathComponent("t.jsonl"), atomically: true, encoding: .utf8)
        let output = try runPopsim(["replay", "t.jsonl", "--catalog", "c.json", "--columns", "user=uid,time=ts", "--time-unit", "iso8601",
                                    "--format", "csv"], in: dir)
        #expect(output.stderr == "")
        #expect(output.stdout == """
            column,by,group,users,requests,shown,dropped: duration,dropped: discard,dropped: condition,dropped: removed,dropped: cleared,dropped: duplicate,dropped: replaced,dropped: outranked,dropped: overflow,dropped: rate-limit,dropped: cooldown,dropped: expired,dropped: quota,lost,overlaps,pending at end,wait p50 (ms),wait p90 (ms),wait p99 (ms),wait max (ms),wait distance (ms),most on screen,fails: wait b <= 500,fails per request: wait b <= 500,agrees with production,agrees in timing,did not settle
            production,,,1,2,1 (50.0%),-,-,-,-,-,-,-,-,-,-,-,-,-,-,0,-,0,0,0,0,-,1,100.0% (1),100.0% (1),-,-,-
            fg,,,1,2,2 (100.0%),0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1000,1000,1000,500,1,100.0% (1),100.0% (1),0.0% (0),0.0% (0),0
            production,popup,a,1,1,1 (100.0%),-,-,-,-,-,-,-,-,-,-,-,-,-,-,0,-,0,0,0,0,-,,,,,,
            fg,popup,a,1,1,1 (100.0%),0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,
            production,popup,b,1,1,0 (0.0%),-,-,-,-,-,-,-,-,-,-,-,-,-,-,0,-,-,-,-,-,-,,100.0% (1),,,,
            fg,popup,b,1,1,1 (100.0%),0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1000,1000,1000,1000,-,,100.0% (1),,,,

            """)
    }

    @Test func savedUsersRunAsPlainScenarios() throws {
        let dir = try folder()
        let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "jc-lifo", "--save", "out"], in: dir)
        #expect(output.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).sorted()
        #expect(files == ["1-u1.jc-lifo.json", "1-u1.jc-lifo.production.json", "4-u3.jc-lifo.json", "4-u3.jc-lifo.production.json"])
        let run = try runPopsim(["run", "out/1-u1.jc-lifo.json"], in: dir)
        #expect(run.status == 1) // its property fails: that is why it was saved
        #expect(run.stdout.contains("2610  hide     a  user  ok"))
        #expect(run.stdout.contains("fails  wait b <= 500: b waited 600 ms (requested at 0 ms, shown at 600 ms)"))
        // Who disagrees with production is named, and saved with what production showed as its expect:
        // jc-lifo shows u1's b before a; fg, the scheduler that made the trace, meets it.
        #expect(output.stdout.contains("\n  jc-lifo: agrees with production: u1 (row 1), u3 (row 4)\n"))
        let production = try String(contentsOf: dir.appendingPathComponent("out/1-u1.jc-lifo.production.json"), encoding: .utf8)
        // jc-lifo shows a, hides it for b, and shows a again: one show of a more than production's.
        #expect(production.contains(#""expect": [\#n    "shown a",\#n    "shown b",\#n    "shows a <= 1 per 1000000000000",\#n    "shows b <= 1 per 1000000000000",\#n    "a before b"\#n  ]"#))
        let lifo = try runPopsim(["run", "out/1-u1.jc-lifo.production.json"], in: dir)
        #expect(lifo.status == 1 && lifo.stdout.contains("fails  shows a <= 1 per 1000000000000"))
        let fg = try runPopsim(["run", "out/1-u1.jc-lifo.production.json", "--strategy", "fg"], in: dir)
        #expect(fg.status == 0)
        let u3 = try String(contentsOf: dir.appendingPathComponent("out/4-u3.jc-lifo.production.json"), encoding: .utf8)
        #expect(u3.contains("\"expect\": [\"never shown a\", \"never shown b\"]"))
        // The first who disagree merge across shards like the first who fail.
        let json = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "jc-lifo", "--format", "json"], in: dir)
        #expect(json.stdout.contains(#""disagreeingFirst": [{"user": "u1", "row": 1}, {"user": "u3", "row": 4}],"#))
    }

    /// `--save` writes every user who disagrees with production, not only the five named: the
    /// bundled week under its policy, 86 of 300 users; the same files with any `--jobs` and when
    /// the users go through temporary partitions.
    @Test func everyDisagreeingUserIsSaved() throws {
        let dir = try temporaryDirectory()
        let week = packageRoot.appendingPathComponent("Examples/replay")
        var listings: [[String]] = []
        for (k, extra) in [[], ["--jobs", "2"], ["--memory", "1M"]].enumerated() {
            let output = try runPopsim(["replay", week.appendingPathComponent("week.csv").path, "--catalog", week.appendingPathComponent("app.json").path,
                                        "--strategy", "policy", "--policy", week.appendingPathComponent("rules.json").path, "--save", "out\(k)"] + extra,
                                       in: dir)
            #expect(output.status == 0)
            #expect(output.stdout.contains(try Regex("\nagrees with production +- +71.7% \\(215\\)\n")))
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out\(k)").path).sorted()
            #expect(files.count == 85 && files.allSatisfy { $0.hasSuffix(".policy.production.json") })
            listings.append(files)
        }
        #expect(listings[0] == listings[1] && listings[0] == listings[2])
        let saved = try String(contentsOf: dir.appendingPathComponent("out0/31-u111.policy.production.json"), encoding: .utf8)
        let again = try String(contentsOf: dir.appendingPathComponent("out1/31-u111.policy.production.json"), encoding: .utf8)
        #expect(saved == again && saved.contains("disagrees with production; expect: what production showed"))
    }
}

/// The fast way (plain CSV rows decoded from their bytes) and the Strings way (any row; a
/// quoted field takes it) read every kind of row the same.
@Suite("replay: fast and Strings ways agree")
struct ReplayFastPathTests {
    static let catalog = #"""
        {"popsim": 1, "strategy": "sonner",
         "state": {"screen": "home", "n": 0, "vip": false},
         "popups": {"a": {"duration": 1000, "then": {"ok": []}}, "b": {"duration": 800}, "c": {"when": "vip"}},
         "expect": ["wait a <= 500", "visible <= 1"]}
        """#
    static let rows = [
        "u1,0,enqueue,a,", "u2,5,set,,n=3", "u1,10,enqueue,b,", "u2,10,set,,vip=true", "u2,11,enqueue,c,",
        "u1,20,pauseTimers,,", "u1,30,resumeTimers,a,", "u3,0,push,,cart", "u3,5,enqueue,a,", "u3,7,press,a,ok",
        "u3,9,pop,,", "u3,9,popTo,,home", "u3,10,replace,,x", "u3,11,popToRoot,,", "u1,40,remove,b,", "u1,41,dismiss,a,",
        "u2,50,suspend,,", "u2,60,resume,,", "u2,61,trigger,,", "u2,62,clear,,", "u1,50,shown,a,", "u1,90,dismissed,a,ok",
        "u4,3,set,,screen=cart", "u4,4,enqueue,b,", "u4,4,shown,b,", "u4,9,dismissed,b,",
    ]

    @Test func everyKindOfRowReadsTheSameQuotedOrNot() throws {
        let dir = try temporaryDirectory()
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let plain = "user,time,action,popup,value\n" + Self.rows.joined(separator: "\n") + "\n"
        let quoted = "user,time,action,popup,value\n" + Self.rows.map { row in
            row.split(separator: ",", omittingEmptySubsequences: false).map { "\"\($0)\"" }.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        try plain.write(to: dir.appendingPathComponent("p.csv"), atomically: true, encoding: .utf8)
        try quoted.write(to: dir.appendingPathComponent("q.csv"), atomically: true, encoding: .utf8)
        let a = try runPopsim(["replay", "p.csv", "--catalog", "c.json", "--strategy", "all", "--format", "csv"], in: dir)
        let b = try runPopsim(["replay", "q.csv", "--catalog", "c.json", "--strategy", "all", "--format", "csv"], in: dir)
        #expect(a.stderr == "")
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.contains("production,,,4,5,2 (40.0%)"))
        // The users saved are the same scenarios, whichever way their rows were read.
        _ = try runPopsim(["replay", "p.csv", "--catalog", "c.json", "--save", "sp"], in: dir)
        _ = try runPopsim(["replay", "q.csv", "--catalog", "c.json", "--save", "sq"], in: dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("sp").path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let x = try String(contentsOf: dir.appendingPathComponent("sp/" + name), encoding: .utf8)
            let y = try String(contentsOf: dir.appendingPathComponent("sq/" + name), encoding: .utf8)
            #expect(x.replacingOccurrences(of: "p.csv", with: "") == y.replacingOccurrences(of: "q.csv", with: ""))
        }
    }
}

/// `--sweep`: every combination a column, a strategy without the swept options a baseline, the
/// curves one line per strategy with each point's value on hover.
@Suite("replay: sweeps")
struct ReplaySweepTests {
    @Test func aSweepRunsEveryValueAndDrawsCurves() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let base = ["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--strategy", "policy", "--sweep", "cooldownMs=0,500,2000"]
        let csv = try runPopsim(base + ["--format", "csv"], in: dir)
        #expect(csv.stderr == "")
        let lines = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(6).joined(separator: ",") }
        #expect(Array(lines.prefix(6)) == ["column,strategy,cooldownMs,by,group,users", "production,production,,,,3", "fg,fg,,,,3", "policy:cooldownMs=0,policy,0,,,3",
                                           "policy:cooldownMs=500,policy,500,,,3", "policy:cooldownMs=2000,policy,2000,,,3"])
        // Then each popup's rows, the same columns: a was requested by u1 and u3, b by all three.
        #expect(Array(lines.dropFirst(6)) == ["production,production,,popup,a,2", "fg,fg,,popup,a,2", "policy:cooldownMs=0,policy,0,popup,a,2",
                                              "policy:cooldownMs=500,policy,500,popup,a,2", "policy:cooldownMs=2000,policy,2000,popup,a,2",
                                              "production,production,,popup,b,3", "fg,fg,,popup,b,3", "policy:cooldownMs=0,policy,0,popup,b,3",
                                              "policy:cooldownMs=500,policy,500,popup,b,3", "policy:cooldownMs=2000,policy,2000,popup,b,3"])
        let svg = try runPopsim(base + ["--format", "svg"], in: dir)
        #expect(svg.status == 0)
        #expect(svg.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.stdout.contains("<title>policy:cooldownMs=500: "))
        #expect(svg.stdout.contains("stroke-dasharray=\"6 4\"><title>fg: "))
        let again = try runPopsim(base + ["--format", "svg", "--jobs", "1"], in: dir)
        #expect(again.stdout == svg.stdout)
        // A wait is drawn over requests (a drop fails it); `--by popup` adds each popup's panels
        // and tables after the whole's.
        #expect(svg.stdout.contains(">wait b &lt;= 500: % of requests late or dropped</text>"))
        #expect(!svg.stdout.contains(">a: shown, % of requests</text>"))
        let html = try runPopsim(base + ["--format", "html", "--by", "popup"], in: dir)
        // Each popup under its heading, its panels where something is not 0, the others one line.
        let sections = html.stdout.components(separatedBy: "<h2>")
        #expect(sections.dropFirst().map { $0.prefix { $0 != "<" } } == ["popup a", "popup b"])
        func titles(_ section: String) -> [String] {
            section.components(separatedBy: "class=\"title\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
        }
        #expect(titles(sections[1]) == ["shown, % of requests"])
        #expect(sections[1].contains("<p class=\"note\">0 everywhere (production and every column): dropped, lost, pending at end, wait p50, "
                                     + "wait p90, wait p99, wait distance from production</p>"))
        #expect(titles(sections[2]) == ["shown, % of requests", "wait p50", "wait p90", "wait p99", "wait distance from production"])
        // Production's value is the dotted line; waits read in human units.
        #expect(html.stdout.contains("class=\"production\"><title>production: 300 ms</title></line>"))
        #expect(html.stdout.components(separatedBy: "<table>").count == 4) // the whole, a, b
        #expect(html.stdout.contains("<tr><th>a</th><th>production</th>"))
        let bad = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "policy", "--sweep", "cooldownMs"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr == "popsim: replay: --sweep: expected NAME=V1,V2,... with each name once, got \"cooldownMs\"\n")
    }
}

/// A trace whose users are not together, past what `--memory` lets a worker hold, goes through
/// temporary partitions (read back, and split again when too big): the same report, the same
/// errors, nothing left in the temporary folder.
@Suite("replay: partitions")
struct ReplayPartitionTests {
    @Test func partitionedGivesTheSameReportAndLeavesNothing() throws {
        let dir = try temporaryDirectory()
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        _ = try runPopsim(["gen", "--trace", "--users", "150", "--seed", "5", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        let base = ["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--strategy", "keyed", "--format", "json"]
        let memory = try runPopsim(base, in: dir)
        #expect(memory.status == 0)
        for jobs in ["1", "2", "3"] {
            // Below what popsim needs: every user goes to partitions, split as deep as they go.
            let parted = try runPopsim(base + ["--memory", "1", "--jobs", jobs], in: dir, environment: ["TMPDIR": tmp.path])
            #expect(parted.stdout == memory.stdout)
            #expect(parted.stderr.hasPrefix("popsim: replay: warning: --memory 1 is less than popsim needs to run at all"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
        }
        // A time going backwards is found when the partition is read back, still located.
        let bad = "user,time,action,popup,value\nu1,10,enqueue,upgrade,\nu2,0,enqueue,rate,\nu1,5,enqueue,rate,\n"
        try bad.write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let e = try runPopsim(["replay", "bad.csv", "--catalog", "app.json", "--memory", "1"], in: dir, environment: ["TMPDIR": tmp.path])
        #expect(e.status == 2)
        #expect(e.stderr.hasSuffix("bad.csv:4:4: expected a time no earlier than user \"u1\"\'s rows before it, got 5\n"))
        #expect(e.stdout == "")
        let size = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--memory", "lots"], in: dir)
        #expect(size.status == 2 && size.stderr == "popsim: replay: --memory: expected a size like 256M (bytes, or K, M, G), got \"lots\"\n")
    }

    /// A file whose users come grouped is replayed as each user's rows end once past --memory; if a
    /// user's rows come back after all, the file is read again the other way: the same report.
    @Test func aTraceThatLooksGroupedAndIsNotIsReadAgain() throws {
        let dir = try temporaryDirectory()
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        _ = try runPopsim(["gen", "--trace", "--users", "1500", "--seed", "6", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        let lines = try String(contentsOf: dir.appendingPathComponent("week.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        let sorted = [lines[0]] + lines.dropFirst().sorted { $0.prefix { $0 != "," } < $1.prefix { $0 != "," } }
        let user = sorted[1].prefix { $0 != "," }
        // The first user's rows come back at the very end (its last time, again).
        let last = sorted.last { $0.hasPrefix(user + ",") } ?? ""
        let back = String(user) + "," + (last.split(separator: ",", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? "0") + ",enqueue,toast,"
        try ((sorted + [back]).joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("g.csv"), atomically: true, encoding: .utf8)
        try (sorted.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("s.csv"), atomically: true, encoding: .utf8)
        let base = ["replay", "--catalog", "app.json", "--format", "csv"]
        for name in ["g.csv", "s.csv"] {
            let whole = try runPopsim(base + [name], in: dir)
            #expect(whole.status == 0)
            for jobs in ["1", "2"] {
                let tight = try runPopsim(base + [name, "--memory", "1", "--jobs", jobs], in: dir, environment: ["TMPDIR": tmp.path])
                #expect(tight.stdout == whole.stdout, "\(name) --jobs \(jobs)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
            }
        }
    }
}

/// One user's rows are never split: a user bigger than `--memory` leaves for one part is read
/// whole, said on stderr, and the report is the same.
@Suite("replay: a user bigger than the budget")
struct ReplayBigUserTests {
    @Test func aUserTooBigForTheBudgetIsSaidAndReplayedWhole() throws {
        let dir = try temporaryDirectory()
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        _ = try runPopsim(["gen", "--trace", "--users", "1", "--seed", "1", "--catalog", "app.json", "--output", "one.csv"], in: dir)
        var rows = ["user,time,action,popup,value"]
        for i in 0..<250_000 {
            rows.append("big,\(i),enqueue,toast,")
            if i % 50 == 0 { rows.append("u\(i),\(i),enqueue,toast,") }
        }
        try (rows.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let base = ["replay", "t.csv", "--catalog", "app.json", "--format", "csv", "--jobs", "1"]
        let whole = try runPopsim(base, in: dir)
        #expect(whole.status == 0 && whole.stderr == "")
        let tight = try runPopsim(base + ["--memory", "32M"], in: dir, environment: ["TMPDIR": tmp.path])
        #expect(tight.stdout == whole.stdout)
        #expect(tight.stderr.hasPrefix("popsim: replay: warning: user \"big\"'s rows ("), "\(tight.stderr)")
        #expect(tight.stderr.hasSuffix(" MiB encoded) were more than --memory leaves for one part; memory went past it for them\n"))
    }
}

/// Standard input is told by its first bytes: JSON Lines needs no flag.
@Suite("replay: standard input")
struct ReplayStandardInputTests {
    @Test func jsonLinesOnStandardInputIsToldByItsFirstByte() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let jsonl = #"{"user": "u1", "time": 100, "action": "enqueue", "popup": "a"}"# + "\n" + #"{"user": "u1", "time": 100, "action": "shown", "popup": "a"}"# + "\n"
        try jsonl.write(to: dir.appendingPathComponent("t.jsonl"), atomically: true, encoding: .utf8)
        try jsonl.write(to: dir.appendingPathComponent("t.txt"), atomically: true, encoding: .utf8)
        let file = try runPopsim(["replay", "t.jsonl", "--catalog", "c.json", "--format", "csv"], in: dir)
        #expect(file.status == 0 && file.stdout.contains("\nfg,,,1,1,1 (100.0%),"))
        let piped = try runPopsim(["replay", "-", "--catalog", "c.json", "--format", "csv"], in: dir, stdin: jsonl)
        #expect(piped.stderr == "")
        #expect(piped.stdout == file.stdout)
        let other = try runPopsim(["replay", "t.txt", "--catalog", "c.json", "--format", "csv"], in: dir)
        #expect(other.stdout == file.stdout)
    }
}

/// A CSV file read by several workers at once (each keeping its share of the users) gives the
/// bytes of one, a bad row located as one reader would, a quoted field of many lines included.
@Suite("replay: workers")
struct ReplayWorkersTests {
    @Test func severalWorkersGiveTheBytesOfOne() throws {
        let dir = try temporaryDirectory()
        _ = try runPopsim(["gen", "--trace", "--users", "1200", "--seed", "8", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        let size = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("week.csv").path)[.size] as? Int ?? 0
        #expect(size > 1 << 20)
        let base = ["replay", "week.csv", "--catalog", "app.json", "--format", "json"]
        let one = try runPopsim(base + ["--jobs", "1"], in: dir)
        let two = try runPopsim(base + ["--jobs", "2"], in: dir)
        #expect(one.status == 0)
        #expect(two.stdout == one.stdout)
        // A bad row in the second half is located as if one reader had read it.
        var lines = try String(contentsOf: dir.appendingPathComponent("week.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        let at = lines.count * 3 / 4
        lines[at] = "u1,0,enqueue,nope,"
        try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let bad = try runPopsim(["replay", "bad.csv", "--catalog", "app.json", "--jobs", "2"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr == "bad.csv:\(at + 1):14: unknown popup \"nope\"\n")
        // A quoted field of many lines (--multiline-fields), read by every worker.
        let filler = String(repeating: "line\n", count: 300_000)
        let quoted = "user,time,action,popup,value\nu1,0,enqueue,rate,\"\(filler)\"\nu2,5,enqueue,toast,\nu1,9,enqueue,guide,\n"
        try quoted.write(to: dir.appendingPathComponent("q.csv"), atomically: true, encoding: .utf8)
        let q1 = try runPopsim(["replay", "q.csv", "--catalog", "app.json", "--format", "csv", "--jobs", "1", "--multiline-fields"], in: dir)
        let q2 = try runPopsim(["replay", "q.csv", "--catalog", "app.json", "--format", "csv", "--jobs", "2", "--multiline-fields"], in: dir)
        #expect(q1.stderr == "")
        #expect(q2.stdout == q1.stdout)
        #expect(q1.stdout.contains("\nfg,,,2,3,"))
    }
}

/// One error policy (issue 39): a user whose run does not settle is counted, named and makes the
/// exit 1; a plug-in that fails, or popsim's own bug, stops the replay with run's words, the user
/// named, exit 2 (or 70), nothing written.
@Suite("replay: runs that do not settle or fail")
struct ReplayUnsettledTests {
    @Test func aRunawayUserIsNamedTheOthersRunAndTheExitIsOne() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        var rows = ["user,time,action,popup,value", "calm,0,enqueue,a,"]
        for i in 0..<40 { rows.append("busy,\(i),enqueue,\(i % 2 == 0 ? "a" : "b"),") }
        try (rows.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--max-steps", "5"], in: dir)
        #expect(output.status == 1)
        #expect(output.stderr == "")
        #expect(output.stdout.contains("\ndid not settle                             1\n"))
        #expect(output.stdout.contains("  fg: the run settles: busy (row 2)\n"))
        #expect(output.stdout.contains("\nrequests                                   1\n"))
        // No request of b: its share over requests has nothing to count.
        #expect(output.stdout.contains("\nfails per request: wait b <= 500           -\n"))
        // Written to a file, still exit 1; merged shards that hold it, too.
        let json = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--max-steps", "5", "--shard", "0/1",
                                  "--format", "json", "--output", "s.json"], in: dir)
        #expect(json.status == 1)
        let merged = try runPopsim(["replay", "--merge", "s.json"], in: dir)
        #expect(merged.status == 1)
        #expect(merged.stdout.contains("  fg: the run settles: busy (row 2)\n"))
    }

    @Test func aPlugInThatDiesStopsTheReplayWithItsUserNamed() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try ReplayTests.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let script = dir.appendingPathComponent("dies.sh")
        try "#!/bin/sh\necho 'no config' >&2\nexit 3\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        for jobs in ["1", "2"] {
            let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--strategy", "exec:./dies.sh",
                                        "--jobs", jobs, "--output", "out.txt"], in: dir)
            #expect(output.status == 2)
            // Before any user: run's line as it is.
            #expect(output.stderr == "plug-in exec:./dies.sh: it exited with status 3 before its handshake (its stderr: no config)\n")
            #expect(output.stdout == "")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.txt").path))
        }
        // One that dies on its first message, after a good handshake.
        let crash = dir.appendingPathComponent("crash.py")
        try PluginFailureTests.python("raise SystemExit('boom')").write(to: crash, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: crash.path)
        let output = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "exec:./crash.py"], in: dir)
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("user \"u1\" (row 1) under exec:./crash.py: plug-in exec:./crash.py"))
        #expect(output.stderr.contains("boom"))
        #expect(output.stdout == "")
    }
}

/// A plug-in is a column like any other: the Python notistack adds up to the built-in one's
/// figures on the bundled week of 300 users, on two cores.
@Suite("replay: plug-ins")
struct ReplayPluginTests {
    @Test func thePythonNotistackAddsUpToTheBuiltInOne() throws {
        let output = try runPopsim(["replay", "Examples/replay/week.csv", "--catalog", "Examples/replay/app.json", "--strategy", "notistack",
                                    "--strategy", "exec:Examples/plugins/notistack.py", "--format", "csv", "--jobs", "2"])
        #expect(output.status == 0)
        // The whole, then each of the catalog's six popups: the plug-in's row the built-in one's, every time.
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 1 + 3 * 7)
        for k in stride(from: 2, to: lines.count, by: 3) {
            let figures = lines[k...k + 1].map { $0.split(separator: ",", maxSplits: 1)[1] }
            #expect(figures.count == 2 && figures[0] == figures[1], "\(lines[k])")
        }
        #expect(lines[3].hasPrefix("exec:Examples/plugins/notistack.py,,,300,2496,"))
        #expect(lines[6].hasPrefix("exec:Examples/plugins/notistack.py,popup,upgrade,176,274,"))
    }
}

/// Edges a review of the replay code found: huge times and counts never trap, one worker and
/// several agree on a blank first line and on times going back across the middle,
/// negative times keep their answers, sweep columns save apart.
@Suite("replay: edges")
struct ReplayEdgeTests {
    static let catalog = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {"duration": "forever", "then": {"ok": []}}, "b": {}}, "expect": ["wait b <= 500"]}"#

    /// Line `line` of a CSV report (0: the header), each field under its column's name.
    static func csvFields(_ csv: String, line: Int) -> [String: String] {
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard line < lines.count else { return [:] }
        return Dictionary(zip(lines[0], lines[line]), uniquingKeysWith: { a, _ in a })
    }

    func folder() throws -> URL {
        let dir = try temporaryDirectory()
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        return dir
    }

    func write(_ text: String, _ name: String, in dir: URL) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test func hugeTimesAndCountsNeverTrap() throws {
        let dir = try folder()
        try write("user,time,action,popup,value\nu,9300000000000000000,enqueue,a,\n", "t.csv", in: dir)
        let big = try runPopsim(["replay", "t.csv", "--catalog", "c.json"], in: dir)
        #expect(big.status == 2)
        #expect(big.stderr == "t.csv:2:3: expected a time in integer milliseconds (other units: --time-unit s or iso8601), got \"9300000000000000000\"\n")
        // A wait of 4·10¹⁸ ms, drawn.
        try write("user,time,action,popup,value\nu,0,enqueue,a,\nu,0,enqueue,b,\nu,4000000000000000000,remove,a,\n", "w.csv", in: dir)
        for format in ["svg", "html", "text", "csv"] {
            let out = try runPopsim(["replay", "w.csv", "--catalog", "c.json", "--format", format], in: dir)
            #expect(out.status == 0, "\(format)")
        }
        // A report with counts no replay writes is refused, not added up.
        let json = try runPopsim(["replay", "w.csv", "--catalog", "c.json", "--format", "json", "--shard", "0/1"], in: dir).stdout
        try write(json.replacingOccurrences(of: "\"users\": 1,", with: "\"users\": 9000000000000000000,"), "s.json", in: dir)
        let merged = try runPopsim(["replay", "--merge", "s.json"], in: dir)
        #expect(merged.status == 2)
        #expect(merged.stderr == "s.json: not a replay report (popsim replay --format json writes one)\n")
        // Counts that do not go together: more shown than requested (issue 66, cause 10).
        #expect(json.contains("\"requests\": 2,"), "\(json)")
        try write(json.replacingOccurrences(of: "\"requests\": 2,", with: "\"requests\": 0,"), "s.json", in: dir)
        let shownPastRequests = popsimInProcess(["replay", "--merge", dir.appendingPathComponent("s.json").path])
        #expect(shownPastRequests.status == 2 && shownPastRequests.stderr.hasSuffix("s.json: not a replay report (popsim replay --format json writes one)\n"))
    }

    @Test func negativeTimesKeepTheirAnswers() throws {
        let dir = try folder()
        // a shown at -5000 and answered 3000 ms later: b, waiting behind it, shows at 3000 (wait 2000).
        try write("user,time,action,popup,value\nu,-5000,enqueue,a,\nu,-5000,shown,a,\nu,-4000,enqueue,b,\nu,-2000,dismissed,a,ok\n", "t.csv", in: dir)
        let out = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--format", "csv"], in: dir)
        #expect(out.stderr == "")
        let fields = Self.csvFields(out.stdout, line: 2)
        #expect(fields["column"] == "fg" && fields["pending at end"] == "0" && fields["wait max (ms)"] == "2000")
    }

    @Test func workersAgreeOnABlankFirstLineAndTimesGoingBack() throws {
        let dir = try folder()
        var rows = ["", "user,time,action,popup,value", "u0,100,enqueue,b,"]
        for i in 1..<40_000 { rows.append("u\(i),\(i),enqueue,b,") }
        rows += ["u0,50,enqueue,b,", "u0,80,enqueue,b,"]
        try write(rows.joined(separator: "\n") + "\n", "t.csv", in: dir)
        let one = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--max-errors", "5", "--format", "csv", "--jobs", "1"], in: dir)
        let two = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--max-errors", "5", "--format", "csv", "--jobs", "2"], in: dir)
        #expect(one.status == 0)
        #expect(two.stdout == one.stdout && two.stderr == one.stderr)
        #expect(one.stderr.split(separator: "\n").count == 2)
        // Without the blank line, the same.
        try write(rows.dropFirst().joined(separator: "\n") + "\n", "u.csv", in: dir)
        let three = try runPopsim(["replay", "u.csv", "--catalog", "c.json", "--max-errors", "5", "--format", "csv", "--jobs", "2"], in: dir)
        let four = try runPopsim(["replay", "u.csv", "--catalog", "c.json", "--max-errors", "5", "--format", "csv", "--jobs", "1"], in: dir)
        #expect(three.stdout == four.stdout && three.stderr == four.stderr)
        #expect(three.stderr == "u.csv:40002:4: expected a time no earlier than user \"u0\"'s rows before it, got 50\n"
                + "u.csv:40003:4: expected a time no earlier than user \"u0\"'s rows before it, got 80\n")
    }

    /// Two workers gather a chunk while the next is indexed (`ReplayPass`): over several chunks,
    /// with quoted line breaks that leave some chunks to one reader and with a reading stopped
    /// by too many bad rows in the middle, the same report, errors and exit as one worker.
    @Test func workersGatheringWhileTheNextChunkIsIndexedAgreeWithOne() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rows = ["user,time,action,popup,value"]
        for i in 0..<250_000 {
            // Every third row's value holds a quoted line break: a cut may fall inside it.
            rows.append("u\(i % 7_000),\(i),enqueue,\(i % 2 == 0 ? "a" : "b")," + (i % 3 == 0 ? "\"x\ny\"" : ""))
            if i % 5_000 == 4_999 { rows.append("u\(i % 7_000),\(i),shown,\(i % 2 == 0 ? "a" : "b"),") }
        }
        let clean = rows.joined(separator: "\n") + "\n"
        // Six chunks of 1 MiB: the second and third are cut inside a quoted field, the last
        // three follow one another indexed beside the gathering.
        #expect(clean.utf8.count > 5 << 20, "not six chunks: \(clean.utf8.count) bytes")
        var bad = rows
        // In the first chunk: reading stops once it is gathered, the second one indexed.
        for k in 0..<8 { bad.insert("u\(k),later,enqueue,a,", at: 20_000 + 1_000 * k) }
        try write(clean, "clean.csv", in: dir)
        try write(bad.joined(separator: "\n") + "\n", "bad.csv", in: dir)
        for file in ["clean.csv", "bad.csv"] {
            let common = ["replay", file, "--catalog", "c.json", "--strategy", "fg", "--max-errors", "3", "--format", "json"]
            let one = try runPopsim(common + ["--jobs", "1"], in: dir), two = try runPopsim(common + ["--jobs", "2"], in: dir)
            #expect(two.status == one.status && two.stdout == one.stdout && two.stderr == one.stderr, "\(file)")
            #expect(one.status == (file == "bad.csv" ? 2 : 0), "\(file): \(one.stderr)")
        }
        let stopped = try runPopsim(["replay", "bad.csv", "--catalog", "c.json", "--max-errors", "3", "--jobs", "2"], in: dir)
        let time = "expected a time in integer milliseconds (other units: --time-unit s or iso8601), got \"later\""
        #expect(stopped.status == 2)
        #expect(stopped.stderr == [26_667, 27_999, 29_332, 30_665].map { "bad.csv:\($0):4: \(time)\n" }.joined())
    }

    @Test func sweepColumnsSaveApart() throws {
        let dir = try folder()
        try write("user,time,action,popup,value\nu,0,enqueue,a,\nu,0,enqueue,b,\nu,900,remove,a,\n", "t.csv", in: dir)
        let out = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--strategy", "policy", "--sweep", "cooldownMs=0,100",
                                 "--save", "out"], in: dir)
        #expect(out.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).sorted()
        // No `shown` row: no production to disagree with, so only the failing runs.
        #expect(files == ["1-u.policy_cooldownMs_0.json", "1-u.policy_cooldownMs_100.json"])
    }
}
