import Foundation
import Testing
import PopsimTestSupport

/// A fit sharded over more shards than it has starts: the shards that hold none did their part
/// (exit 0, a line that says so) and merge with the others (issue 66, cause 15).
@Suite("fit: a shard with no start")
struct FitEmptyShardTests {
    @Test func aShardWithNoStartIsNoFailure() throws {
        let dir = try FitTests.folder(users: 20, seed: 3)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = ["fit", dir.appendingPathComponent("week.csv").path, "--catalog", dir.appendingPathComponent("app.json").path,
                    "--search", "fg", "--budget", "20"]
        let r = popsimInProcess(base + ["--shard", "99/100"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        #expect(r.stdout.contains("\nshard 99/100 holds none of the "), "\(r.stdout)")
        #expect(r.stdout.hasSuffix(" starts: nothing to search here (fit --merge puts the shards together)\n"), "\(r.stdout)")
        let json = popsimInProcess(base + ["--shard", "99/100", "--format", "json"])
        #expect(json.status == 0 && json.stdout.contains("\"shard\": \"99/100\""), "\(json.stdout.prefix(300))")
    }
}

/// `fit --merge` checks that each start's models are of that start (issue 66, cause 10): a
/// forged `fg` start listing `policy:order=lifo` is refused, not merged as the fit.
@Suite("fit: merged starts hold their own models")
struct FitMergeStartsTests {
    @Test func aStartListingAnotherStartsModelIsRefused() throws {
        let dir = try FitTests.folder(users: 20, seed: 3)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = popsimInProcess(["fit", dir.appendingPathComponent("week.csv").path, "--catalog", dir.appendingPathComponent("app.json").path,
                                     "--search", "fg", "--budget", "20", "--shard", "0/1", "--format", "json"])
        #expect(shard.status == 0)
        let path = dir.appendingPathComponent("s.json").path
        try shard.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(popsimInProcess(["fit", "--merge", path]).status == 0)
        // The first finalist of the fg start becomes a policy model.
        let text = shard.stdout
        let finalists = try #require(text.range(of: "\"finalists\": ["))
        var rest = String(text[finalists.upperBound...])
        for (from, to) in [("\"strategy\": \"fg\",", "\"strategy\": \"policy\","), ("\"options\": [],", "\"options\": [[\"order\", \"lifo\"]],")] {
            let at = try #require(rest.range(of: from))
            rest.replaceSubrange(at, with: to)
        }
        try (String(text[..<finalists.upperBound]) + rest).write(toFile: path, atomically: true, encoding: .utf8)
        let forged = popsimInProcess(["fit", "--merge", path])
        #expect(forged.status == 2)
        #expect(forged.stderr.contains("start 0 (fg) lists a model of another start"), "\(forged.stderr)")
    }
}
