import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// Each property kind on hand-written timelines, with its edges: the same instant, a popup never
/// enqueued, a run that ends with it pending, cross-fading for `visible`.
@Suite("properties")
struct PropertyTests {
    /// The verdict of `property` on `timeline` (text form), with popups a, b, c declared.
    static func judge(_ property: String, _ timeline: String, pending: [String] = [], end: Int? = nil) throws -> String {
        let text = #"{"popsim": 1, "popups": {"a": {}, "b": {}, "c": {}}, "expect": ["\#(property)"], "events": []}"#
        let scenario = try loadScenario(text).get()
        let parsed = try TimelineTextParser.parse(timeline)
        // The parser numbers subjects by appearance; the judge reads popup indices.
        var remapped = Timeline(subjects: scenario.popups.map(\.name))
        for var e in parsed.entries {
            if e.subject >= 0, let id = scenario.popupID(named: parsed.subjects[Int(e.subject)]) { e.subject = id.index }
            remapped.entries.append(e)
        }
        let result = RunResult(scenario: scenario, strategy: "fg", options: .defaults(of: []), timeline: remapped,
                               pending: pending.compactMap { scenario.popupID(named: $0) },
                               end: end ?? remapped.entries.last?.t ?? 0)
        let verdict = try #require(PropertyJudge.verdicts(result).first)
        return VerdictText.line(verdict)
    }

    @Test func noWarning() throws {
        #expect(try Self.judge("no overlap", "0 show a\n0 show b\n") == "holds  no overlap")
        #expect(try Self.judge("no overlap", "0 show a\n5 warning b overlap\n5 show b\n")
                == "fails  no overlap: warning b overlap at 5 ms")
        #expect(try Self.judge("no lost", "5 warning b overlap\n") == "holds  no lost")
        #expect(try Self.judge("no stalled", "7 warning a stalled\n") == "fails  no stalled: warning a stalled at 7 ms")
    }

    @Test func noPending() throws {
        #expect(try Self.judge("no pending", "0 enqueue a\n0 show a\n") == "holds  no pending")
        #expect(try Self.judge("no pending", "0 enqueue a\n0 enqueue b\n", pending: ["a", "b"], end: 40)
                == "fails  no pending: a, b still queued at the end (40 ms)")
    }

    @Test func shownAndNeverShown() throws {
        #expect(try Self.judge("shown a", "0 enqueue a\n10 show a\n") == "holds  shown a")
        #expect(try Self.judge("shown c", "0 enqueue a\n") == "fails  shown c: c never shown (never enqueued)")
        #expect(try Self.judge("shown a", "0 enqueue a\n", pending: ["a"], end: 9) == "fails  shown a: a never shown")
        #expect(try Self.judge("never shown b", "0 show a\n") == "holds  never shown b")
        #expect(try Self.judge("never shown a", "0 enqueue a\n3 show a\n") == "fails  never shown a: a shown at 3 ms")
    }

    @Test func before() throws {
        #expect(try Self.judge("a before b", "0 show a\n10 show b\n") == "holds  a before b")
        // The same instant: the earlier line is first.
        #expect(try Self.judge("a before b", "5 show a\n5 show b\n") == "holds  a before b")
        #expect(try Self.judge("a before b", "5 show b\n5 show a\n") == "fails  a before b: b shown at 5 ms, a at 5 ms")
        #expect(try Self.judge("a before b", "2000 show b\n3500 show a\n") == "fails  a before b: b shown at 2000 ms, a at 3500 ms")
        #expect(try Self.judge("a before b", "2000 show b\n") == "fails  a before b: b shown at 2000 ms, a never")
        // Holds when b never shows.
        #expect(try Self.judge("a before b", "0 enqueue b\n", pending: ["b"]) == "holds  a before b")
    }

    @Test func wait() throws {
        #expect(try Self.judge("wait a <= 100", "0 enqueue a\n100 show a\n") == "holds  wait a <= 100")
        #expect(try Self.judge("wait a <= 100", "0 enqueue a\n101 show a\n")
                == "fails  wait a <= 100: a waited 101 ms (requested at 0 ms, shown at 101 ms)")
        // A duplicate dropped as it arrives ends the newest request, not the waiting one.
        // The verdict names the drop (issue 25: a vacuous pass is visible).
        #expect(try Self.judge("wait a <= 100", "0 enqueue a\n0 show a\n50 enqueue a\n50 drop a duplicate\n")
                == "holds  wait a <= 100 (a was also dropped at 50 ms; a dropped request's wait is not judged)")
        #expect(try Self.judge("wait a <= 100", "0 enqueue a\n20 drop a removed\n30 enqueue a\n40 drop a expired\n")
                == "holds  wait a <= 100 (a was dropped 2 times from 20 ms and never shown; a dropped request's wait is not judged)")
        // A request left unshown at the end fails, however short the run.
        #expect(try Self.judge("wait a <= 100", "0 enqueue a\n", pending: ["a"], end: 10)
                == "fails  wait a <= 100: a requested at 0 ms, still not shown at the end (10 ms)")
        // A popup never enqueued keeps it.
        #expect(try Self.judge("wait c <= 0", "0 enqueue a\n") == "holds  wait c <= 0")
        // A temporary hide opens a new request: its wait counts from the hide.
        #expect(try Self.judge("wait a <= 100", "0 enqueue a\n0 show a\n500 hide a temporary\n500 gone a\n550 show a\n")
                == "holds  wait a <= 100")
    }

    @Test func visible() throws {
        #expect(try Self.judge("visible <= 1", "0 show a\n100 hide a user\n300 gone a\n300 show b\n") == "holds  visible <= 1")
        // A cross-fade: b shows while a is still leaving.
        #expect(try Self.judge("visible <= 1", "0 show a\n100 hide a duration\n100 show b\n300 gone a\n")
                == "fails  visible <= 1: 2 on screen at 100 ms: a, b")
        // A hide without animation (no gone line) takes the popup off at once.
        #expect(try Self.judge("visible <= 1", "0 show a\n100 hide a user\n100 show b\n") == "holds  visible <= 1")
        #expect(try Self.judge("visible <= 2", "0 show a\n0 show b\n0 show c\n") == "fails  visible <= 2: 3 on screen at 0 ms: a, b, c")
        #expect(try Self.judge("visible <= 0", "0 enqueue a\n") == "holds  visible <= 0")
    }

    @Test func showsPerWindow() throws {
        #expect(try Self.judge("shows <= 2 per 1000", "0 show a\n500 show b\n1000 show c\n") == "holds  shows <= 2 per 1000")
        #expect(try Self.judge("shows <= 2 per 1000", "0 show a\n500 show b\n999 show c\n")
                == "fails  shows <= 2 per 1000: 3 shows from 0 to 999 ms, within 1000 ms")
        #expect(try Self.judge("shows a <= 1 per 100", "0 show a\n10 show b\n100 show a\n") == "holds  shows a <= 1 per 100")
        #expect(try Self.judge("shows a <= 1 per 100", "0 show a\n99 show a\n")
                == "fails  shows a <= 1 per 100: 2 shows of a from 0 to 99 ms, within 100 ms")
        #expect(try Self.judge("shows <= 0 per 1", "5 show a\n") == "fails  shows <= 0 per 1: 1 show from 5 to 5 ms, within 1 ms")
    }
}
