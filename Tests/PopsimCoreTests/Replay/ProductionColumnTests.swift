import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Production's column is counted from its rows in one pass (`ReplayTally.addProduction`); its
/// contract is `ProductionRun`'s: the rows written as a run's lines and counted and judged by the
/// columns' own code (`ReplayTally.add`, `PropertyJudge`) give the very same figures.
@Suite("replay: the production column")
struct ProductionColumnTests {
    /// Users of `gen --trace` traces under several strategies (whose shows overlap, are replaced,
    /// dropped and answered show by show), each counted both ways.
    @Test(arguments: ["fg", "jc-lifo", "notistack", "swiftmessages", "entrykit"])
    func theOnePassCountsWhatTheRunsLinesGive(_ strategy: String) throws {
        let text = TraceGenerator.catalog.replacingOccurrences(of: #""expect": ["#, with: #""expect": ["shown upgrade", "rate before campaign", "no overlap", "#)
        let catalog = try loadScenario(text).get()
        let users = try FitSearchTests.users(TestTier.count(quick: 60, full: 300), seed: 13, strategy: strategy, catalog: catalog)
        let replayer = Replayer(catalog: catalog, columns: [], limits: RunLimits(), file: "t.csv")
        var fast = replayer.emptyTallies(), slow = replayer.emptyTallies()
        var scratch = ReplayScratch(for: replayer)
        var run = ProductionRun()
        var result = scratch.productionResult
        for user in users {
            let ref = user.ref
            let most = fast.production.addProduction(user, catalog: catalog.popups, &scratch, groups: replayer.groups, into: &fast.productionGroups,
                                                     waitRules: replayer.waitRules)
            if replayer.judgesOnRuns { scratch.productionRun.make(user, popups: catalog.popups, into: &scratch.productionResult) }
            replayer.judge(replayer.judgesOnRuns ? scratch.productionResult : nil, most: most, ref, &fast.production, &fast.productionGroups, &scratch)
            let shows = scratch.answers.screen.popups
            run.make(user, popups: catalog.popups, into: &result)
            let slowMost = slow.production.add(result, &scratch, groups: replayer.groups, into: &slow.productionGroups, waitRules: replayer.waitRules)
            #expect(most == slowMost, "\(user.id)")
            #expect(scratch.showTimes.shows.map(\.popup) == shows && scratch.answers.screen.shown(as: scratch.showTimes)
                    && scratch.answers.screen.keptBy(scratch.showTimes, tolerance: 0), "\(user.id)")
            for (i, e) in catalog.expectations.enumerated() {
                let fails: Bool
                switch e.property {
                case .visibleAtMost(let limit): fails = slowMost > limit
                case .waitAtMost: fails = scratch.waitFails[i]
                default: fails = PropertyJudge.judge(e.property, result) != nil
                }
                if fails { slow.production.failed(i, ref) }
                for g in slow.productionGroups.indices where fails && scratch.touched[g] { slow.productionGroups[g].failed(i, ref) }
            }
        }
        // Every figure production's column shows (its drops, losses and pending stay "-": the
        // one pass does not count them).
        func shown(_ t: ReplayTally) -> ReplayTally {
            var t = t
            t.drops = t.drops.map { _ in 0 }
            t.lost = 0
            t.pending = 0
            return t
        }
        #expect(shown(fast.production) == shown(slow.production))
        #expect(fast.productionGroups.map(shown) == slow.productionGroups.map(shown))
        // The comparison means something: production had shows, waits, failures.
        #expect(fast.production.shown > 0 && fast.production.failures.contains { $0 > 0 })
    }
}
