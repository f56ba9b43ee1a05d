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
