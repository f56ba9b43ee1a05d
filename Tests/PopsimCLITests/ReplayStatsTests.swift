import Foundation
import Testing
import PopsimTestSupport

/// `POPSIM_REPLAY_STATS`: one line on stderr at exit with each phase's wall and busy time (what
/// `Benchmarks/run` reads to say where a replay's time goes), the report itself unchanged, and
/// nothing said or measured without it.
@Suite struct ReplayStatsTests {
    @Test func theLineSaysEachPhaseAndTheReportIsUnchanged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gen = try runPopsim(["gen", "--trace", "--users", "2000", "--seed", "5", "--catalog", "app.json", "--output", "t.csv"], in: dir)
        #expect(gen.status == 0, "\(gen.stderr)")
        for jobs in ["1", "2"] {
            let args = ["replay", "t.csv", "--catalog", "app.json", "--strategy", "fg", "--jobs", jobs]
            let plain = try runPopsim(args, in: dir)
            let measured = try runPopsim(args, in: dir, environment: ["POPSIM_REPLAY_STATS": "1"])
            #expect(plain.status == 0 && measured.status == 0, "\(measured.stderr)")
            #expect(measured.stdout == plain.stdout)
            #expect(!plain.stderr.contains("replay stats"))
            if jobs == "1" {
                // Another command says nothing of it.
                let run = try runPopsim(["lint", "app.json"], in: dir, environment: ["POPSIM_REPLAY_STATS": "1"])
                #expect(!run.stderr.contains("replay stats"), "\(run.stderr)")
            }
            let lines = measured.stderr.split(separator: "\n").filter { $0.hasPrefix("replay stats: ") }
            #expect(lines.count == 1, "\(measured.stderr)")
            let line = String(lines.first ?? "")
            let pattern = #/replay stats: indexing (\d+) ms \(busy (\d+) ms\), gathering (\d+) ms \(busy (\d+) ms\), releasing (\d+) ms \(busy (\d+) ms\), replaying (\d+) ms \(busy (\d+) ms\)/#
            let match = try #require(line.wholeMatch(of: pattern), "\(line)")
            // One job reads without an index; two index every chunk.
            if jobs == "1" { #expect(match.output.1 == "0" && match.output.2 == "0") }
            // A phase's threads are busy no longer than its wall time times the jobs; indexing
            // and gathering together, as a chunk is indexed while the one before is gathered.
            let n = Int(jobs) ?? 1
            let ms = [match.output.1, match.output.2, match.output.3, match.output.4,
                      match.output.5, match.output.6, match.output.7, match.output.8].map { Int($0) ?? 0 }
            for (wall, busy) in [(ms[0] + ms[2], ms[1] + ms[3]), (ms[4], ms[5]), (ms[6], ms[7])] {
                #expect(busy <= wall * n + 2, "\(line)")
            }
            #expect(ms[3] > 0 && ms[7] > 0, "\(line)")
        }
    }
}
