import Foundation
import Testing
import PopsimTestSupport

/// A team's export read as it is (issue 40): three shapes in `Examples/replay/exports/` — a
/// Segment-style track export, Firebase from BigQuery in local time without a zone, a server's
/// JSON Lines log with its own popup names — each replays, through its mapping file, to the
/// figures of the same rows in popsim's own words; unmapped events are skipped and counted.
@Suite("replay: an export as it is")
struct ReplayExportTests {
    static let exports = "Examples/replay/exports/"
    static let catalog = "Examples/replay/app.json"

    /// The report without its first line (the trace's name and counts) and the users named by row.
    static func figures(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        return lines.prefix { !$0.hasPrefix("first users") }.joined(separator: "\n")
    }

    @Test(arguments: [("segment.csv", "40 rows of unmapped events skipped: Application Opened 40"),
                      ("firebase.csv", "189 rows of unmapped events skipped: user_engagement 149, session_start 40"),
                      ("server.jsonl", "328 rows of unmapped events skipped: heartbeat 328")])
    func anExportReplaysLikePopsimsWords(_ file: String, _ skipped: String) throws {
        let words = try runPopsim(["replay", Self.exports + "words.csv", "--catalog", Self.catalog, "--strategy", "fg", "--strategy", "jc-lifo"],
                                  in: packageRoot)
        let stem = String(file.prefix { $0 != "." })
        let mapped = try runPopsim(["replay", Self.exports + file, "--catalog", Self.catalog, "--strategy", "fg", "--strategy", "jc-lifo",
                                    "--mapping", Self.exports + stem + ".mapping.json"], in: packageRoot)
        #expect(words.status == 0 && mapped.status == 0 && mapped.stderr == "")
        #expect(Self.figures(mapped.stdout) == Self.figures(words.stdout))
        #expect(Self.figures(words.stdout).contains("agrees with production"))
        #expect(mapped.stdout.hasPrefix("replay: \(Self.exports + file) with \(Self.catalog): 40 users, "))
        #expect(mapped.stdout.split(separator: "\n")[0].hasSuffix("; " + skipped))
    }

    /// Shards of a mapped export merge to the unsharded bytes, the unmapped counts included.
    @Test func aMappedExportsShardsMerge() throws {
        let dir = try temporaryDirectory()
        let base = ["replay", packageRoot.path + "/" + Self.exports + "firebase.csv", "--catalog", packageRoot.path + "/" + Self.catalog,
                    "--mapping", packageRoot.path + "/" + Self.exports + "firebase.mapping.json", "--format", "json"]
        let whole = try runPopsim(base, in: dir)
        for i in 0..<2 { _ = try runPopsim(base + ["--shard", "\(i)/2", "--output", "s\(i).json"], in: dir) }
        let merged = try runPopsim(["replay", "--merge", "--format", "json", "s1.json", "s0.json"], in: dir)
        #expect(merged.status == 0 && merged.stdout == whole.stdout)
        #expect(whole.stdout.contains(#""unmapped": {"session_start": 40, "user_engagement": 149}"#))
    }

    /// The command line maps a small export without a file; a time without a zone is UTC unless
    /// `--time-zone` gives its offset, and a bad time says so.
    @Test func theCommandLineMapsASmallExport() throws {
        let dir = try temporaryDirectory()
        try """
            {"popsim": 1, "state": {"screen": "home"}, "popups": {"a": {"duration": 1000, "when": "screen == 'cart'"}}}
            """.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try """
            uid,at,event,popup,screen
            u,2026-11-20 08:00:00,open,,
            u,2026-11-20 08:00:00,popup_requested,a,
            u,2026-11-20 08:00:02.5,screen_view,,cart

            """.write(to: dir.appendingPathComponent("e.csv"), atomically: true, encoding: .utf8)
        let args = ["replay", "e.csv", "--catalog", "c.json", "--strategy", "fg", "--columns", "user=uid,time=at,action=event,value=screen",
                    "--time-unit", "iso8601", "--event", "popup_requested=enqueue", "--event", "screen_view=set screen", "--format", "csv"]
        let output = try runPopsim(args, in: dir)
        #expect(output.stderr == "")
        // a waited 2.5 s for the cart.
        let fg = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("fg,,,") })
        let header = output.stdout.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let fields = Dictionary(zip(header, fg.split(separator: ",", omittingEmptySubsequences: false).map(String.init)), uniquingKeysWith: { a, _ in a })
        #expect(fields["shown"] == "1 (100.0%)" && fields["wait p50 (ms)"] == "2496" && fields["wait max (ms)"] == "2500" && fields["most on screen"] == "1")
        let json = try runPopsim(args.dropLast(2) + ["--format", "json", "--time-zone", "+01:00"], in: dir)
        #expect(json.stdout.contains(#""unmapped": {"open": 1}"#))
        try "uid,at,event,popup,screen\nu,20.11.2026 08:00,popup_requested,a,\n".write(to: dir.appendingPathComponent("b.csv"), atomically: true, encoding: .utf8)
        let bad = try runPopsim(["replay", "b.csv"] + args.dropFirst(2), in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr == "b.csv:2:3: expected an ISO 8601 time, like 2026-11-20T08:00:00.250Z (one without a zone is UTC unless --time-zone gives its offset), got \"20.11.2026 08:00\"\n")
        let wrong = try runPopsim(args + ["--event", "x=sett screen"], in: dir)
        #expect(wrong.status == 2 && wrong.stderr.hasPrefix("popsim: replay: --event: expected NAME=MEANING with a meaning among enqueue, "))
    }

    /// A mapping that names none of the trace's events replays nobody: exit 2, naming the events
    /// it skipped, never an empty report with exit 0.
    @Test func aMappingThatMatchesNothingIsAnError() throws {
        let output = try runPopsim(["replay", Self.exports + "firebase.csv", "--catalog", Self.catalog,
                                    "--columns", "user=user_pseudo_id,time=event_time,action=event_name,popup=popup_id,value=label",
                                    "--time-unit", "iso8601", "--event", "Popup Requested=enqueue"], in: packageRoot)
        #expect(output.status == 2 && output.stdout == "")
        #expect(output.stderr == "\(Self.exports)firebase.csv: no user was replayed: no row's event is mapped (popup_requested 409, "
                + "screen_view 352, popup_impression 328, app_background 171, popup_dismiss 149, …): map them with --event NAME=MEANING or --mapping\n")
    }
}
