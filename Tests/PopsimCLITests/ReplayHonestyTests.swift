import Foundation
import Testing
import PopsimTestSupport

/// `replay` and `gen --trace` never fool their user (issue 40, "Never fool the user"): gen never
/// writes over a catalog, a compressed trace is refused with the command that reads it, a quote
/// left open costs one line (or, to the end, stops the replay whatever `--max-errors`), and a
/// replay of no user, or of less than half the rows, is exit 2 with nothing written.
@Suite("replay: never fools its user")
struct ReplayHonestyTests {
    static let catalog = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}}}"#

    func folder(_ trace: String) throws -> URL {
        let dir = try temporaryDirectory()
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    func exists(_ name: String, in dir: URL) -> Bool { FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path) }

    /// Runs `command` with /bin/sh in `dir`, to its end.
    func sh(_ command: String, in dir: URL) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.currentDirectoryURL = dir
        try p.run()
        p.waitUntilExit()
    }

    @Test func genNeverWritesOverACatalog() throws {
        let dir = try folder("")
        let mine = try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8)
        let refused = try runPopsim(["gen", "--trace", "--users", "2", "--catalog", "c.json", "--output", "week.csv"], in: dir)
        #expect(refused.status == 2)
        #expect(refused.stderr == "popsim: gen: --catalog \"c.json\" exists: gen --trace writes a new catalog there (replay's --catalog reads it); "
                + "name a new file, or add --force to replace it\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8) == mine)
        #expect(!exists("week.csv", in: dir))
        let forced = try runPopsim(["gen", "--trace", "--users", "2", "--catalog", "c.json", "--force", "--output", "week.csv"], in: dir)
        #expect(forced.status == 0 && forced.stderr == "")
        #expect(try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8) != mine)
        let fresh = try runPopsim(["gen", "--trace", "--users", "2", "--catalog", "new.json", "--output", "w2.csv"], in: dir)
        #expect(fresh.status == 0 && exists("new.json", in: dir))
    }

    @Test func aCompressedTraceIsRefusedWithTheCommandThatReadsIt() throws {
        let dir = try folder("user,time,action,popup,value\nu1,0,enqueue,a,\n")
        try sh("gzip -c t.csv > 't w.csv.gz'", in: dir)
        let file = try runPopsim(["replay", "t w.csv.gz", "--catalog", "c.json", "--output", "out.txt"], in: dir)
        #expect(file.status == 2 && file.stdout == "" && !exists("out.txt", in: dir))
        #expect(file.stderr == "t w.csv.gz:1:1: a gzip-compressed file: popsim reads a trace as text (CSV or JSON Lines); "
                + "decompress it on the way in: gzip -dc 't w.csv.gz' | popsim replay - --catalog …\n")
        try sh("cat 't w.csv.gz' | '\(popsimExecutable().path)' replay - --catalog c.json 2>err.txt; echo $? > status.txt", in: dir)
        #expect(try String(contentsOf: dir.appendingPathComponent("status.txt"), encoding: .utf8) == "2\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)
                == "-:1:1: a gzip-compressed file: popsim reads a trace as text (CSV or JSON Lines); "
                + "decompress it before the pipe, e.g. gzip -dc FILE | popsim replay - --catalog …\n")
    }

    /// The analyst's file: one quote left open on row 61 of 400 under --max-errors. It costs
    /// row 61; read as multi-line fields it would take rows 61-400, which stops the replay.
    @Test func aQuoteLeftOpenCostsOneRowNeverTheFile() throws {
        var rows = ["user,time,action,popup,value"]
        for i in 0..<400 { rows.append("u\(i % 20),\(i * 10),enqueue,\(i % 2 == 0 ? "a" : "b"),") }
        rows[61] = "u0,600,enqueue,\"a,"
        let dir = try folder(rows.joined(separator: "\n") + "\n")
        let kept = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--max-errors", "5"], in: dir)
        #expect(kept.status == 0)
        #expect(kept.stderr == "t.csv:62:1: a quoted field runs on past a line break and the next: its quote is taken as left open, "
                + "this line as a bad row, and the next line read as a row (a trace whose fields hold more line breaks: --multiline-fields)\n")
        #expect(kept.stdout.hasPrefix("replay: t.csv with c.json: 20 users, 399 rows; 1 bad rows skipped with their 0 users\n"))
        let eaten = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--max-errors", "5", "--multiline-fields", "--output", "out.txt"], in: dir)
        #expect(eaten.status == 2 && !exists("out.txt", in: dir))
        #expect(eaten.stderr == "t.csv:62:1: a quoted field is not closed before the end of the trace\n"
                + "t.csv: the quote left open on line 62 takes the rest of the trace with it: --max-errors skips a few bad rows, "
                + "not the rest of the file; close the quote\n")
    }

    @Test func aReplayOfNoUserOrOfLessThanHalfTheRowsIsRefused() throws {
        let dir = try folder("user,time,action,popup,value\n")
        let empty = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--output", "out.txt"], in: dir)
        #expect(empty.status == 2 && !exists("out.txt", in: dir))
        #expect(empty.stderr == "t.csv: no user was replayed: the trace has no rows\n")
        try "user,time,action,popup,value\nu1,0,enqueue,c,\nu1,5,enqueue,a,\nu2,0,enqueue,a,\nu2,1,enqueue,zz,\n"
            .write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let none = try runPopsim(["replay", "bad.csv", "--catalog", "c.json", "--max-errors", "5"], in: dir)
        #expect(none.status == 2 && none.stdout == "")
        #expect(none.stderr == "bad.csv:2:14: unknown popup \"c\"\nbad.csv:5:14: unknown popup \"zz\"\n"
                + "bad.csv: no user was replayed: every user was left out with a bad row (2 users, 4 rows)\n")
        // Three of five rows left out with their users: more than half.
        try "user,time,action,popup,value\nu1,0,enqueue,c,\nu1,5,enqueue,a,\nu2,0,enqueue,a,\nu3,0,enqueue,zz,\nu2,1,enqueue,b,\n"
            .write(to: dir.appendingPathComponent("most.csv"), atomically: true, encoding: .utf8)
        let most = try runPopsim(["replay", "most.csv", "--catalog", "c.json", "--max-errors", "5", "--format", "json"], in: dir)
        #expect(most.status == 2 && most.stdout == "")
        #expect(most.stderr.hasSuffix("most.csv: 3 of 5 rows were left out with their users' bad rows, more than half: "
                                      + "--max-errors skips a few bad rows, not a broken trace; fix the rows above\n"))
        // Two of four: half is still a replay.
        try "user,time,action,popup,value\nu1,0,enqueue,c,\nu1,5,enqueue,a,\nu2,0,enqueue,a,\nu2,1,enqueue,b,\n"
            .write(to: dir.appendingPathComponent("half.csv"), atomically: true, encoding: .utf8)
        let half = try runPopsim(["replay", "half.csv", "--catalog", "c.json", "--max-errors", "5"], in: dir)
        #expect(half.status == 0)
        #expect(half.stdout.hasPrefix("replay: half.csv with c.json: 1 users, 4 rows; 1 bad rows skipped with their 1 users\n"))
    }

    /// A shard may hold no user; shards that together replayed none merge to exit 2.
    @Test func shardsOfNoUserMergeToARefusal() throws {
        let dir = try folder("user,time,action,popup,value\n")
        for i in 0..<2 {
            let shard = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--shard", "\(i)/2", "--format", "json", "--output", "s\(i).json"], in: dir)
            #expect(shard.status == 0 && shard.stderr == "")
        }
        let merged = try runPopsim(["replay", "--merge", "s0.json", "s1.json"], in: dir)
        #expect(merged.status == 2 && merged.stdout == "")
        #expect(merged.stderr == "popsim: replay: --merge: no user was replayed in any shard\n")
    }
}

/// Per popup, level and key: a sharded replay merges to the unsharded bytes, levels and keys
/// (summed from their popups once per report) included, and `--by` shows them.
@Suite("replay: per popup, level and key")
struct ReplayGroupsEndToEndTests {
    @Test func levelsAndKeysMergeByteForByte() throws {
        let dir = try temporaryDirectory()
        let catalog = #"""
            {"popsim": 1, "strategy": "fg",
             "popups": {"a": {"priority": 10, "duration": 1000, "level": "high", "key": "promo"},
                        "b": {"priority": 5, "duration": 1000, "key": "promo"}, "c": {"duration": 500}},
             "expect": ["wait b <= 500"]}
            """#
        try catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        var rows = ["user,time,action,popup,value"]
        for u in 0..<60 {
            rows.append("u\(u),\(u),enqueue,\(["a", "b", "c"][u % 3]),")
            if u % 2 == 0 { rows.append("u\(u),\(u + 5),enqueue,b,") }
        }
        try (rows.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let base = ["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--strategy", "jc-lifo", "--format", "json"]
        let whole = try runPopsim(base, in: dir)
        #expect(whole.status == 0)
        for i in 0..<3 { _ = try runPopsim(base + ["--shard", "\(i)/3", "--output", "s\(i).json"], in: dir) }
        let merged = try runPopsim(["replay", "--merge", "--format", "json", "s2.json", "s0.json", "s1.json"], in: dir)
        #expect(merged.status == 0 && merged.stdout == whole.stdout)
        let byKey = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--by", "key"], in: dir)
        // promo: a's 20 requests and b's 50 (20 users ask for b alone, 30 after another popup), from 50 users.
        #expect(byKey.stdout.contains("\npromo                                     fg\nusers                                     50\nrequests                                  70\n"))
        #expect(byKey.stdout.contains("\nfails: wait b <= 500  "))
        let byLevel = try runPopsim(["replay", "t.csv", "--catalog", "c.json", "--by", "level"], in: dir)
        #expect(byLevel.stdout.contains("\nby level (those requested):\n\nhigh "))
        // high holds a only: `wait b` is not about it.
        let high = byLevel.stdout.components(separatedBy: "by level").last?.components(separatedBy: "first users").first ?? ""
        #expect(high.contains("\nhigh ") && !high.contains("fails:"))
    }
}

/// What a reader must know to read the table is said under it, as `run` says what a strategy
/// ignores: braze-iam on a trace without `trigger` rows, a strategy of several slots against
/// `visible <= 1`.
@Suite("replay: notes under the table")
struct ReplayNotesTests {
    @Test func aStrategyThatNeedsWhatTheTraceLacksIsNoted() throws {
        let dir = try temporaryDirectory()
        let catalog = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {"duration": 1000}, "b": {"duration": 1000}}, "expect": ["visible <= 1"]}"#
        try catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try "user,time,action,popup,value\nu1,0,enqueue,a,\nu1,0,enqueue,b,\n".write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let base = ["replay", "t.csv", "--catalog", "c.json", "--strategy", "fg", "--strategy", "braze-iam", "--strategy", "notistack"]
        let text = try runPopsim(base, in: dir)
        #expect(text.status == 0)
        #expect(text.stdout.contains("""

            note: braze-iam shows a waiting popup only when the app asks again (an enqueue, or a trigger row); this trace has no trigger row, so its waits last until the user's next request
            note: notistack had up to 2 popups on screen at once (several by design, or overlapping): `visible <= 1` fails for it wherever it did

            """))
        #expect(!text.stdout.contains("note: fg"))
        let markdown = try runPopsim(base + ["--format", "markdown"], in: dir)
        #expect(markdown.stdout.contains("\n> Note: braze-iam shows a waiting popup only when the app asks again"))
        // With a trigger row, braze-iam needs no note; the merged shards say the same as the whole.
        try "user,time,action,popup,value\nu1,0,enqueue,a,\nu1,0,enqueue,b,\nu1,5000,trigger,,\n"
            .write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let asked = try runPopsim(base, in: dir)
        #expect(!asked.stdout.contains("note: braze-iam") && asked.stdout.contains("note: notistack"))
        for i in 0..<2 { _ = try runPopsim(base + ["--shard", "\(i)/2", "--format", "json", "--output", "s\(i).json"], in: dir) }
        let merged = try runPopsim(["replay", "--merge", "s0.json", "s1.json"], in: dir)
        #expect(merged.status == 0 && merged.stdout == asked.stdout)
    }
}
