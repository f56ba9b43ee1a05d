import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// Explore's default budget is bounded by the work a scenario's runs take (issue 66, cause 20):
/// 150 popups in any order with 70 `before` properties under all 14 strategies ran 10,000 variants
/// for 34 s; the default now runs as many as fit `ExploreBudget.work`, and the report says so.
@Suite("explore: a default budget bounded by the work")
struct ExploreBudgetTests {
    static func scenario(popups n: Int, properties k: Int) throws -> Scenario {
        let popups = (0..<n).map { #""p\#($0)": {"duration": 1000}"# }.joined(separator: ",")
        let list = (0..<n).map { #""p\#($0)""# }.joined(separator: ",")
        let expect = (0..<k).map { #""p\#($0) before p\#($0 + 1)""# }.joined(separator: ",")
        return try loadScenario(#"{"popsim": 1, "popups": {\#(popups)}, "events": [{"at": 0, "enqueue": [\#(list)], "order": "any"}], "expect": [\#(expect)]}"#).get()
    }

    @Test func longRunsLowerTheDefaultOnly() throws {
        let big = try Self.scenario(popups: 150, properties: 70)
        #expect(ExploreBudget.variants(for: big, strategies: StrategyRegistry.all.count) == 3331)
        #expect(ExploreBudget.variants(for: big, strategies: 1) == ExploreBudget.standard)
        let small = try Self.scenario(popups: 6, properties: 3)
        #expect(ExploreBudget.variants(for: small, strategies: StrategyRegistry.all.count) == ExploreBudget.standard)
    }

    @Test func theReportSaysTheBudgetWasLowered() throws {
        var report = ExploreReport(file: "s.json", possible: 1000, run: 10, exhaustive: false, seed: 1, strategies: [])
        report.lowered = ExploreReport.Lowered(budget: 10, from: 10_000)
        #expect(report.text().contains("\nbudget: 10 variants a strategy, not the default 10000: this scenario's runs are long "
                                       + "(the default keeps an exploration to a few seconds); --budget 10000 asks for them all\n"))
        let json = report.json()
        #expect(json.contains("\"budget\": 10,") && json.contains("\"defaultBudget\": 10000,"), "\(json)")
        let back = try #require(ExploreReport(json: try JSONReader.parse(Array(json.utf8))))
        #expect(back.lowered == report.lowered)
    }
}
