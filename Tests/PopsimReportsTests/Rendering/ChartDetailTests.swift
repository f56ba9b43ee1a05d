import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Issue 25, charts: slot rows name the popup they hold, a broken property has a legend entry and
/// its evidence on the page, and the trace carries args, an instant per broken property and flow
/// arrows from each wait to its show.
@Suite("chart details")
struct ChartDetailTests {
    static func lanes(_ file: String, _ strategies: [String]) throws -> [(label: String, result: RunResult)] {
        let scenario = try ScenarioSource.load(packageRoot.path + "/" + file)
        return try strategies.map { ($0, try Pipeline.run(scenario, strategy: $0)) }
    }

    @Test func slotRowsNameTheirPopups() throws {
        let lanes = try Self.lanes("Scenarios/first-launch.json", ["notistack"])
        let svg = SVGChart.render(title: "t", lanes: lanes)
        #expect(svg.contains(#"<text class="slot-popup" x="163" y="169">campaign</text>"#), "\(svg)")
        #expect(svg.contains("<title>slot 1: campaign presenting 0–250 ms</title>"))
        let html = HTMLChart.render(title: "t", file: "f", lanes: lanes)
        #expect(html.contains(#"<span class="slot-label" data-t="0" style="top: 90px; left: 0.0%">campaign</span>"#))
        #expect(html.contains("s.style.left = ((t - t0) / (t1 - t0) * 100) + '%';"))
    }

    @Test func aBrokenPropertyHasALegendEntryAndItsEvidence() throws {
        let lanes = try Self.lanes("Scenarios/first-launch.json", ["fg", "jc-fifo"])
        let svg = SVGChart.render(title: "t", lanes: lanes)
        #expect(svg.contains(">property broken (below)</text>"))
        #expect(svg.contains(#">jc-fifo: fails wait upgrade &lt;= 1500 at 5450 ms: upgrade waited 5410 ms (requested at 40 ms, shown at 5450 ms)</text>"#))
        let html = HTMLChart.render(title: "t", file: "f", lanes: lanes)
        #expect(html.contains(#"<span class="key broken"></span> property broken"#))
        #expect(html.contains("<li><b>wait upgrade &lt;= 1500</b> fails at 5450 ms: upgrade waited 5410 ms (requested at 40 ms, shown at 5450 ms)</li>"))
        let clean = try Self.lanes("Scenarios/jc-article-demo.json", ["jc-fifo"])
        #expect(!SVGChart.render(title: "t", lanes: clean).contains("property broken"))
        #expect(!HTMLChart.render(title: "t", file: "f", lanes: clean).contains("key broken"))
    }

    @Test func theTraceCarriesArgsPropertiesAndFlows() throws {
        let trace = TraceChart.render(lanes: try Self.lanes("Scenarios/first-launch.json", ["fg", "jc-fifo"]))
        #expect(trace.contains(#"{"name": "hiding", "cat": "phase", "ph": "X", "ts": 6100000, "dur": 200000, "pid": 1, "tid": 3, "args": {"reason": "user", "button": "ok"}}"#))
        #expect(trace.contains(#"{"name": "warning lost", "cat": "warning", "ph": "i", "s": "t", "ts": 240000, "pid": 1, "tid": 1, "args": {"reason": "lost"}}"#))
        #expect(trace.contains(#"{"name": "wait", "cat": "wait", "ph": "s", "id": 1, "ts": 40000, "pid": 1, "tid": 2},"# + "\n"
            + #"{"name": "wait", "cat": "wait", "ph": "f", "bp": "e", "id": 1, "ts": 900000, "pid": 1, "tid": 2}"#))
        #expect(trace.contains(#"{"name": "fails: wait upgrade <= 1500", "cat": "property", "ph": "i", "s": "p", "ts": 5450000, "pid": 2, "tid": 0, "args": {"evidence": "upgrade waited 5410 ms (requested at 40 ms, shown at 5450 ms)"}}"#))
        // Every flow that starts finishes, once.
        let starts = trace.components(separatedBy: #""ph": "s", "id": "#).count, ends = trace.components(separatedBy: #""ph": "f", "bp": "e", "id": "#).count
        #expect(starts == ends && starts > 4)
        #expect((try? JSONSerialization.jsonObject(with: Data(trace.utf8))) != nil)
    }
}
