import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

let twoAlerts = """
    {"popsim": 1, "name": "two \\"alerts\\"", "strategy": "jc-fifo",
     "popups": {"a": {"respond": {"after": 100}}, "b": {"respond": {"after": 100}}, "c": {}},
     "events": [{"at": 0, "enqueue": ["a", "b"]}, {"at": 50, "enqueue": "c"}]}
    """

@Suite struct ReportTests {
    @Test func jsonReportHasTheDesignsKeyOrder() throws {
        let result = try run(twoAlerts, options: ["showMs=0", "hideMs=0"])
        #expect(JSONRenderer.render(result) == """
            {"popsim": 1, "scenario": "two \\"alerts\\"", "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0, "navMs": 0},
              "timeline": [
                {"t": 0, "event": "enqueue", "popup": "a"},
                {"t": 0, "event": "show", "popup": "a"},
                {"t": 0, "event": "enqueue", "popup": "b"},
                {"t": 50, "event": "enqueue", "popup": "c"},
                {"t": 100, "event": "hide", "popup": "a", "reason": "user"},
                {"t": 100, "event": "show", "popup": "b"},
                {"t": 200, "event": "hide", "popup": "b", "reason": "user"},
                {"t": 200, "event": "show", "popup": "c"}
              ],
              "summary": {"shown": 3, "dropped": 0, "pending": 0, "warnings": 0, "end": 200, "pendingPopups": [], "onScreen": ["c"], "eventsNotRun": 0, "popups": [{"popup": "a", "enqueued": 0, "firstShown": 0, "wait": 0}, {"popup": "b", "enqueued": 0, "firstShown": 100, "wait": 100}, {"popup": "c", "enqueued": 50, "firstShown": 200, "wait": 150}]}}

            """)
    }

    /// Trace Event JSON: a named track per popup, phases as complete events in microseconds.
    @Test func traceHasATrackPerPopupAndPhasesAsSlices() throws {
        let result = try run(twoAlerts, options: ["showMs=0", "hideMs=0"])
        let text = TraceChart.render(lanes: [("jc-fifo", result)])
        _ = try JSONReader.parse(Array(text.utf8))
        #expect(text.contains(#"{"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "b"}}"#))
        #expect(text.contains(#"{"name": "queued", "cat": "phase", "ph": "X", "ts": 0, "dur": 100000, "pid": 1, "tid": 2}"#))
        #expect(text.contains(#"{"name": "shown", "cat": "phase", "ph": "X", "ts": 100000, "dur": 100000, "pid": 1, "tid": 2}"#))
        #expect(TraceChart.us(Int.max) == Int.max)
    }

    @Test func textReportHasHeaderTimelineAndSummary() throws {
        let result = try run(twoAlerts, options: ["showMs=0", "hideMs=0"])
        #expect(TextRenderer.render(result) == """
            two "alerts" · jc-fifo · showMs=0 hideMs=0 navMs=0
              0  enqueue  a
              0  show     a
              0  enqueue  b
             50  enqueue  c
            100  hide     a  user
            100  show     b
            200  hide     b  user
            200  show     c

            summary: 3 shown, 0 dropped, 0 pending, 0 warnings, end 200 ms
            on screen at the end: c
            popup  enqueued  first shown  wait
            a             0            0     0
            b             0          100   100
            c            50          200   150

            """)
    }

    @Test func pendingPopupsAreListed() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}, "b": {}},
             "events": [{"at": 0, "enqueue": ["a", "b"]}]}
            """
        let result = try run(text)
        #expect(result.pending.map { result.scenario.name(of: $0) } == ["b"])
        #expect(TextRenderer.render(result).contains("summary: 1 shown, 0 dropped, 1 pending, 0 warnings, end 400 ms\npending: b\n"))
    }

    @Test func sameInputSameBytes() throws {
        let path = packageRoot.path + "/Scenarios/jc-article-demo.json"
        let scenario = try ScenarioSource.load(path)
        for strategy in ["jc-fifo", "jc-lifo"] {
            let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: [])
            let a = try configuration.run(scenario), b = try configuration.run(scenario)
            #expect(TextRenderer.render(a) == TextRenderer.render(b))
            #expect(JSONRenderer.render(a) == JSONRenderer.render(b))
        }
    }
}
