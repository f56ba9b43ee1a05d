import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Shrinking shares one budget per strategy's outcome (issue 41): 70 broken properties of a
/// 150-popup batch in any order each took 2,000 runs, and `explore --strategy all` minutes.
@Suite("explore: the shrink budget")
struct ShrinkBudgetTests {
    static func scenario(popups: Int, properties: Int) throws -> Scenario {
        let names = (0..<popups).map { "p\($0)" }
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        let expect = (0..<properties).map { "\"p\($0) before p\($0 + 1)\"" }.joined(separator: ", ")
        return try loadScenario(#"{"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0}, "popups": {\#(names.map { "\"\($0)\": {\"duration\": 1}" }.joined(separator: ", "))}, "expect": [\#(expect)], "events": [{"at": 0, "enqueue": [\#(list)], "order": "any"}]}"#).get()
    }

    /// A shrink takes its runs from what it is given, and stops when none is left.
    @Test func aShrinkTakesFromTheBudget() throws {
        let s = try Self.scenario(popups: 30, properties: 1)
        let explorer = Explorer(s)
        var reversed = Variant.nominal(of: s)
        reversed.orders[0].reverse()
        var runs = 5
        let shrunk = try explorer.shrink(reversed, breaking: s.expectations[0].property, strategy: "jc-fifo", overrides: [], runs: &runs)
        #expect(runs == 0)
        #expect(shrunk != reversed) // a step was kept
        var plenty = 1_000_000
        _ = try explorer.shrink(reversed, breaking: s.expectations[0].property, strategy: "jc-fifo", overrides: [], runs: &plenty)
        #expect(plenty < 1_000_000 && plenty > 1_000_000 - 30 * 30 * 2)
    }

    /// Many broken properties share `maxShrinkRuns`: every one still has a counterexample that
    /// breaks it (the later ones as found, once the budget is spent).
    @Test func brokenPropertiesShareTheBudget() throws {
        let s = try Self.scenario(popups: 40, properties: 20)
        let explorer = Explorer(s)
        let plan = explorer.space.plan(budget: 8, seed: 3)
        let tally = try explorer.judge(plan, 0..<plan.count, strategy: "jc-fifo")
        let outcome = try explorer.outcome(tally, plan: plan, strategy: "jc-fifo")
        for p in outcome.properties where p.failures > 0 { #expect(p.counterexample != nil) }
        #expect(outcome.properties.contains { $0.failures > 0 })
    }
}
