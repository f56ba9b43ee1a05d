import Foundation
import Testing
import PopsimTestSupport
@testable import PopsimCore

/// Unmapped event names are kept up to a bound; past it every such row is still counted, no
/// name listed, the same for any `--jobs` (issue 66, cause 18: a name a row grew memory without
/// bound).
@Suite("replay: unmapped names are bounded")
struct UnmappedBoundTests {
    @Test func pastTheBoundRowsCountAndNoNameIsListed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("c.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}}"#.write(toFile: catalog, atomically: true, encoding: .utf8)
        var rows = "user,time,action,popup\nu,0,open,a\n"
        let names = UnmappedEvents.listed + 500
        for k in 0..<names { rows += "u\(k % 7),\(k + 1),event\(k),\n" }
        let trace = dir.appendingPathComponent("t.csv").path
        try rows.write(toFile: trace, atomically: true, encoding: .utf8)
        let base = ["replay", trace, "--catalog", catalog, "--strategy", "fg", "--event", "open=enqueue"]
        let one = popsimInProcess(base + ["--jobs", "1"]), two = popsimInProcess(base + ["--jobs", "2"])
        #expect(one.status == 0 && one.stdout == two.stdout, "\(one.stderr)")
        #expect(one.stdout.contains("; \(names) rows of unmapped events skipped (more than \(UnmappedEvents.listed) event names, "
                                    + "or names over \(UnmappedEvents.longestName) bytes: not listed)"), "\(one.stdout.prefix(300))")
        let json = popsimInProcess(base + ["--format", "json", "--shard", "0/1"])
        #expect(json.stdout.contains("\"unmappedUnlisted\": \(names)") && !json.stdout.contains("\"event0\""))
        let path = dir.appendingPathComponent("s.json").path
        try json.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(popsimInProcess(["replay", "--merge", path, "--format", "json"]).stdout == json.stdout.replacingOccurrences(of: "  \"shard\": \"0/1\",\n", with: ""))
    }

    @Test func theBoundFoldsAlikeInAnySplit() {
        var all = UnmappedEvents(), halves = [UnmappedEvents(), UnmappedEvents()]
        for k in 0...UnmappedEvents.listed {
            all.add("e\(k)")
            halves[k % 2].add("e\(k)")
        }
        var merged = halves[0]
        merged.merge(halves[1])
        #expect(all == merged && all.counts.isEmpty && all.unlisted == UnmappedEvents.listed + 1)
        var long = UnmappedEvents()
        long.add(String(repeating: "x", count: UnmappedEvents.longestName + 1))
        long.add("short")
        #expect(long.counts.isEmpty && long.unlisted == 2)
    }
}
