import Foundation
import Testing
import PopsimTestSupport

/// `fit … --sweep` (issue 65, "How sure"): only models with the swept options are fitted, each
/// figure of the what-if is the best's value and its range across the models that fit, in every
/// format, and the fitted catalog answers the same what-if under `replay`.
@Suite("fit: a what-if as a range over the models that fit")
struct FitWhatIfTests {
    /// A small trace of `gen --trace` and its catalog in a new folder.
    static func trace(users: Int = 80) throws -> URL {
        let dir = try temporaryDirectory()
        let gen = popsimInProcess(["gen", "--trace", "--users", "\(users)", "--seed", "4", "--catalog", dir.path + "/app.json",
                                   "--output", dir.path + "/t.csv"])
        #expect(gen.status == 0)
        return dir
    }

    static func fit(_ dir: URL, _ extra: [String]) -> ProcessOutput {
        popsimInProcess(["fit", dir.path + "/t.csv", "--catalog", dir.path + "/app.json", "--search", "policy", "--budget", "120",
                         "--sweep", "cooldownMs=0,30000"] + extra)
    }

    @Test func theWhatIfIsARangeOverTheModelsThatFitAndTheCatalogAnswersIt() throws {
        let dir = try Self.trace()
        let json = Self.fit(dir, ["--format", "json", "--output", dir.path + "/fitted.json"])
        #expect(json.status == 0 && json.stderr == "")
        let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let whatIf = try #require(report["whatIf"] as? [String: Any])
        let models = try #require(whatIf["models"] as? [String])
        let best = try #require((report["best"] as? [String: Any])?["label"] as? String)
        #expect(models.first == best && models.count >= 2 && models.allSatisfy { $0.hasPrefix("policy") })
        let combinations = try #require(whatIf["combinations"] as? [[String: Any]])
        #expect(combinations.map { $0["values"] as? [String] } == [["0"], ["30000"]])
        var ranged = 0
        for c in combinations {
            for g in try #require(c["groups"] as? [[String: Any]]) {
                for f in try #require(g["figures"] as? [[String: Any]]) {
                    guard let b = f["best"] as? Int, let lo = f["low"] as? Int, let hi = f["high"] as? Int else { continue }
                    #expect(lo <= b && b <= hi, "\(f)")
                    if lo < hi { ranged += 1 }
                }
            }
        }
        // The models that fit do not all answer alike: a range shows it.
        #expect(ranged > 0)
        // The text gives the same: the models, then a table of ranges per popup.
        let text = Self.fit(dir, [])
        #expect(text.status == 0)
        #expect(text.stdout.contains("\nwhat-if: \(models.count) models fit\n"))
        #expect(text.stdout.contains("\n  \(best) (the best)\n"))
        #expect(try Regex("\nshown +[0-9]+ \\([0-9.]+%\\) +[0-9]+ \\([0-9.]+%\\)( \\([0-9]+–[0-9]+\\))? +[0-9]+ \\([0-9.]+%\\) \\([0-9]+–[0-9]+\\)\n")
                .firstMatch(in: text.stdout) != nil)
        let csv = Self.fit(dir, ["--format", "csv"])
        #expect(csv.stdout.hasPrefix("cooldownMs,by,group,figure,unit,production,best,low,high,models\n0,,,shown,count,"))
        #expect(csv.stdout.contains("\n30000,popup,upgrade,wait p99 (ms),ms,"))
        // The fitted catalog answers the same what-if.
        let replay = popsimInProcess(["replay", dir.path + "/t.csv", "--catalog", dir.path + "/fitted.json", "--sweep", "cooldownMs=0,30000"])
        #expect(replay.status == 0 && replay.stdout.contains("policy:cooldownMs=30000"))
        let markdown = Self.fit(dir, ["--format", "markdown"])
        #expect(markdown.stdout.contains("| popup upgrade | production | cooldownMs=0 | cooldownMs=30000 |"))
    }

    /// A what-if no strategy searched can answer, or one asked of shards, is refused (exit 2)
    /// before any search; a value an option refuses too.
    @Test func aWhatIfTheSearchCannotAnswerIsRefused() throws {
        let dir = try Self.trace(users: 20)
        let base = ["fit", dir.path + "/t.csv", "--catalog", dir.path + "/app.json"]
        let none = popsimInProcess(base + ["--search", "policy", "--sweep", "pauseMs=0,1000"])
        #expect(none.status == 2 && none.stdout == "")
        #expect(none.stderr == "popsim: fit: --sweep pauseMs: no strategy searched has that option (swiftmessages has: --search swiftmessages?)\n")
        let sharded = popsimInProcess(base + ["--sweep", "cooldownMs=0,1000", "--shard", "0/2"])
        #expect(sharded.status == 2 && sharded.stderr.contains("--sweep"))
        let bad = popsimInProcess(base + ["--search", "policy", "--sweep", "cooldownMs=0,soon"])
        #expect(bad.status == 2 && bad.stdout == "" && bad.stderr.hasPrefix("popsim: fit: --sweep cooldownMs=soon under policy: "))
    }
}
