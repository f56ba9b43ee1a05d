import Foundation
import Testing
import PopsimTestSupport

/// `popsim fit` end to end: a trace made under a known policy, fitted, the fitted catalog
/// replayed; the same bytes for any `--jobs` and sharded + merged; what stops it and how it says so.
@Suite struct FitTests {
    /// A team's manager: a policy file with five non-default knobs.
    static let truth = #"{"order": "priority+fifo", "busy": "preempt", "busyFor": "higher", "dedupe": "visible", "conditions": "any"}"#

    /// A folder with `week.csv` (`users` users under the truth) and its catalog `app.json`.
    static func folder(users: Int = 60, seed: Int = 5) throws -> URL {
        let dir = try temporaryDirectory()
        try truth.write(to: dir.appendingPathComponent("truth.json"), atomically: true, encoding: .utf8)
        let gen = try runPopsim(["gen", "--trace", "--users", String(users), "--seed", String(seed), "--policy", "truth.json",
                                 "--catalog", "app.json", "--output", "week.csv"], in: dir)
        #expect(gen.status == 0 && gen.stderr == "")
        return dir
    }

    static let quick = ["--search", "policy", "--budget", "1000"]

    @Test func theFittedCatalogReplaysAsProductionAndSaysWhatItChose() throws {
        let dir = try Self.folder(seed: 6)
        let fit = try runPopsim(["fit", "week.csv", "--catalog", "app.json", "--output", "fitted.json", "--save", "wrong"] + Self.quick, in: dir)
        #expect(fit.status == 0, "\(fit.stderr)")
        let lines = fit.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("popsim fit: week.csv, 60 users: ") && lines[0].hasSuffix(" held out (--holdout 0.3)"))
        let best = try #require(lines.first { $0.hasPrefix("best: ") })
        // 60 users do not tell `order` apart (a higher popup preempts the line anyway): the
        // simplest model that agrees with them all is the best.
        #expect(best == "best: policy:busy=preempt,busyFor=higher,conditions=any,dedupe=visible", "\(best)")
        #expect(lines.contains("  agrees with production   100.0% (35/35)   100.0% (25/25)"), "\(fit.stdout)")
        #expect(fit.stdout.contains("fitted catalog: fitted.json\n"))
        let fitted = try String(contentsOf: dir.appendingPathComponent("fitted.json"), encoding: .utf8)
        #expect(fitted.contains(#""strategy": "policy""#) && fitted.contains(#""// busy": "#) && fitted.contains(#""busy": "preempt""#)
                && fitted.contains(#""busyFor": "higher""#) && fitted.contains(#""dedupe": "visible""#) && !fitted.contains(#""order""#), "\(fitted)")
        #expect(fitted.contains("Fitted by popsim fit on week.csv: agrees with production for "))
        // The fitted catalog is what replay, run and explore read: replayed on a fresh trace of the
        // same truth (another seed, 200 users), it agrees with production.
        let fresh = try runPopsim(["gen", "--trace", "--users", "200", "--seed", "6", "--policy", "truth.json", "--output", "fresh.csv"], in: dir)
        #expect(fresh.status == 0)
        let replay = try runPopsim(["replay", "fresh.csv", "--catalog", "fitted.json", "--format", "csv"], in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        let csv = replay.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try #require(csv.first?.firstIndex(of: "agrees with production"))
        let agreement = csv[2][column]
        #expect(agreement == "100.0% (200)", "\(agreement)")
        // The users it gets wrong, if any, are saved with production's shows as their expect.
        let saved = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("wrong").path)) ?? []
        let named = lines.filter { $0.hasPrefix("  user ") }.count
        #expect(saved.count == named && saved.allSatisfy { $0.hasSuffix(".production.json") }, "\(saved) for \(named) named")
    }

    @Test func theSameBytesForAnyJobsAndShardedAndMerged() throws {
        let dir = try Self.folder(users: 40, seed: 9)
        let base = ["fit", "week.csv", "--catalog", "app.json", "--search", "policy", "--search", "fg", "--budget", "150", "--format", "json"]
        let one = try runPopsim(base + ["--jobs", "1"], in: dir)
        let two = try runPopsim(base + ["--jobs", "2"], in: dir)
        #expect(one.status == 0 && one.stdout == two.stdout && !one.stdout.isEmpty)
        for i in 0..<3 {
            let part = try runPopsim(base + ["--shard", "\(i)/3"], in: dir)
            #expect(part.status == 0)
            try part.stdout.write(to: dir.appendingPathComponent("s\(i).json"), atomically: true, encoding: .utf8)
        }
        let merged = try runPopsim(["fit", "--merge", "s2.json", "s0.json", "s1.json", "--format", "json"], in: dir)
        #expect(merged.status == 0 && merged.stdout == one.stdout, "\(merged.stderr)")
        let text = try runPopsim(Array(base.dropLast(2)), in: dir)
        let mergedText = try runPopsim(["fit", "--merge", "s0.json", "s1.json", "s2.json"], in: dir)
        #expect(mergedText.stdout == text.stdout)
        let markdown = try runPopsim(["fit", "--merge", "s0.json", "s1.json", "s2.json", "--format", "markdown"], in: dir)
        #expect(markdown.status == 0 && markdown.stdout.hasPrefix("### popsim fit: week.csv, 40 users: "))
        #expect(markdown.stdout.contains("\n| agrees with production | "), "\(markdown.stdout)")
        let output = try runPopsim(["fit", "--merge", "s0.json", "s1.json", "s2.json", "--catalog", "app.json", "--output", "merged.json"], in: dir)
        let direct = try runPopsim(Array(base.dropLast(2)) + ["--output", "direct.json"], in: dir)
        #expect(output.status == 0 && direct.status == 0)
        #expect(try Data(contentsOf: dir.appendingPathComponent("merged.json")) == Data(contentsOf: dir.appendingPathComponent("direct.json")))
        let missing = try runPopsim(["fit", "--merge", "s0.json", "s1.json"], in: dir)
        #expect(missing.status == 2 && missing.stderr == "popsim: fit: --merge: shard 2/3 is missing\n")
        let seeded = try runPopsim(Array(base.dropLast(2)) + ["--seed", "2", "--shard", "2/3", "--format", "json"], in: dir)
        try seeded.stdout.write(to: dir.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
        let mixed = try runPopsim(["fit", "--merge", "s0.json", "s1.json", "other.json"], in: dir)
        #expect(mixed.status == 2 && mixed.stderr.contains("other.json is of another fit than s0.json"), "\(mixed.stderr)")
    }

    @Test func aSearchCutShortSaysSoExitsTwoAndWritesNoCatalog() throws {
        let dir = try Self.folder(users: 400, seed: 3)
        let fit = try runPopsim(["fit", "week.csv", "--catalog", "app.json", "--timeout", "1", "--output", "fitted.json"], in: dir)
        #expect(fit.status == 2)
        #expect(fit.stdout.contains("INCOMPLETE: timed out after 1 s; the best so far is below\n"), "\(fit.stdout)")
        #expect(fit.stdout.contains("\nbest: "))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("fitted.json").path))
        // Ctrl-C: the same, stopped by the signal.
        let stopped = try runPopsim(["fit", "week.csv", "--catalog", "app.json", "--output", "fitted.json"], in: dir, interruptAfter: 1.5)
        #expect(stopped.status == 2)
        #expect(stopped.stderr == "popsim: stopping: reporting what was done (again to stop at once)\n", "\(stopped.stderr)")
        #expect(stopped.stdout.contains("INCOMPLETE: stopped by SIGINT; the best so far is below\n"), "\(stopped.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("fitted.json").path))
    }

    @Test func badUsageAndInputAreOneLineAndExitTwo() throws {
        let dir = try Self.folder(users: 10)
        let cases: [([String], String)] = [
            (["fit", "week.csv"], "popsim: fit: expected --catalog FILE (the popups, state and expect of the app; see docs/fit.md)\n"),
            (["fit", "week.csv", "--catalog", "app.json", "--holdout", "1.5"],
             "popsim: fit: --holdout: expected a share of users from 0 to 0.9, like 0.3, got \"1.5\"\n"),
            (["fit", "week.csv", "--catalog", "app.json", "--search", "polcy"],
             "popsim: fit: --search: no built-in strategy \"polcy\" (did you mean \"policy\"?); a plug-in is scored with --strategy exec:PATH, not searched\n"),
            (["fit", "week.csv", "--catalog", "app.json", "--shard", "0/2", "--output", "f.json"],
             "popsim: fit: --shard: a shard's best is not the fit's; write --output and --save after fit --merge (--output), or replay the fitted catalog with --save\n"),
            (["fit", "week.csv", "--catalog", "app.json", "--output", "app.json"], "popsim: fit: --output app.json is one of its inputs"),
            (["fit", "week.csv", "--catalog", "app.json", "--budget", "3"],
             "popsim: fit: --budget: expected at least 17 (an evaluation for each start of the search), got 3\n"),
            (["fit", "--merge", "a.json", "--save", "d"], "popsim: fit: --merge: --save belongs to the shards' runs, not to their merge\n"),
            (["fit", "week.csv", "--catalog", "app.json", "--search", "fg", "--save", "/"],
             "popsim: fit: --save: expected a folder for the saved users, not the root of the file system\n"),
        ]
        for (args, message) in cases {
            let r = try runPopsim(args, in: dir)
            #expect(r.status == 2 && r.stdout == "", "\(args)")
            #expect(message.hasSuffix("\n") ? r.stderr == message : r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        // gen --trace --option: production's options, checked before any file is written.
        let badOption = try runPopsim(["gen", "--trace", "--users", "5", "--strategy", "swiftmessages", "--option", "pauseMs=-1",
                                       "--catalog", "new.json", "--output", "new.csv"], in: dir)
        #expect(badOption.status == 2 && badOption.stderr.contains("pauseMs"), "\(badOption.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new.csv").path))
        let stray = try runPopsim(["gen", "--option", "pauseMs=1000"], in: dir)
        #expect(stray.status == 2 && stray.stderr == "popsim: gen: --option goes with --trace (production's rows); a scenario only names its strategy\n")
        // A trace without production's shows has nothing to fit.
        try "user,time,action,popup,value\nu1,0,enqueue,upgrade,\n".write(to: dir.appendingPathComponent("blind.csv"), atomically: true, encoding: .utf8)
        let blind = try runPopsim(["fit", "blind.csv", "--catalog", "app.json"], in: dir)
        #expect(blind.status == 2 && blind.stderr == "blind.csv: no 'shown' row: fit needs what production showed (map your impression event to shown)\n",
                "\(blind.stderr)")
        // A plug-in scored beside the search that dies stops the fit with its words.
        try "#!/bin/sh\necho 'no config' >&2\nexit 3\n".write(to: dir.appendingPathComponent("dies.sh"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent("dies.sh").path)
        let dies = try runPopsim(["fit", "week.csv", "--catalog", "app.json", "--search", "fg", "--strategy", "exec:./dies.sh"], in: dir)
        #expect(dies.status == 2 && dies.stdout == "")
        #expect(dies.stderr.contains("exec:./dies.sh") && dies.stderr.contains("no config"), "\(dies.stderr)")
    }

    /// The catalog's own model (its strategy and options, a policy file) is not where candidates
    /// start: what is scored is what `--output` writes, and replaying it agrees as the report says.
    @Test func theCatalogsOwnModelIsNotAStartingPoint() throws {
        let dir = try Self.folder(users: 40, seed: 4)
        let app = try String(contentsOf: dir.appendingPathComponent("app.json"), encoding: .utf8)
        try #"{"minGapMs": 30000, "lifetimeCap": 1}"#.write(to: dir.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
        let own = app.replacingOccurrences(of: #""strategy": "fg","#, with: #""strategy": "policy", "policy": "mine.json","#)
        #expect(own != app)
        try own.write(to: dir.appendingPathComponent("own.json"), atomically: true, encoding: .utf8)
        let plain = try runPopsim(["fit", "week.csv", "--catalog", "app.json"] + Self.quick, in: dir)
        let fit = try runPopsim(["fit", "week.csv", "--catalog", "own.json", "--output", "fitted.json"] + Self.quick, in: dir)
        #expect(fit.status == 0 && plain.status == 0, "\(fit.stderr)")
        let best = { (r: ProcessOutput) in r.stdout.split(separator: "\n").first { $0.hasPrefix("best: ") } }
        #expect(best(fit) != nil && best(fit) == best(plain))
        let replay = try runPopsim(["replay", "week.csv", "--catalog", "fitted.json", "--format", "csv"], in: dir)
        let csv = replay.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try #require(csv.first?.firstIndex(of: "agrees with production"))
        // The users the report says agree, fit and held out, are those the replay counts.
        let line = try #require(fit.stdout.split(separator: "\n").first { $0.hasPrefix("  agrees with production") })
        let counts = line.split(separator: "(").dropFirst().compactMap { $0.split(separator: "/").first.flatMap { Int($0) } }
        #expect(counts.count == 2)
        #expect(csv[2][column].hasSuffix("(\(counts.reduce(0, +)))"), "\(replay.stdout) against \(line)")
    }
}
