import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Replay decides `wait X <= N` for a user in the tally's own walk of the run's timeline
/// (`ReplayTally.add`, `ReplayScratch.waitFails`) instead of asking `PropertyJudge` per property:
/// it must fail exactly when the judge fails, under every strategy, for every popup and limit.
@Suite("replay: wait properties judged in the tally")
struct ReplayWaitJudgementTests {
    @Test(arguments: 0..<2)
    func theTallyFailsAWaitExactlyWhenTheJudgeDoes(_ block: Int) throws {
        let limits = [0, 1, 500, 3_000, 20_000]
        var judged = 0, failing = 0
        for seed in (block * 10 + 1)...(block * 10 + TestTier.count(quick: 2, full: 6)) {
            let scripts = try EngineReuseTests.scripts(seed: UInt64(seed))
            let catalog = scripts[0]
            let rules = catalog.popups.indices.flatMap { p in
                limits.indices.map { k in Replayer.WaitRule(property: p * limits.count + k, popup: p, limit: limits[k]) }
            }
            let replayer = Replayer(catalog: catalog, columns: [], limits: RunLimits(), file: "t.csv")
            for (strategy, options) in GeneratedInvariantTests.configurations {
                let configuration = try RunConfiguration.resolve(catalog, strategy: strategy, overrides: OptionOverride.parseAll(options))
                var scratch = ReplayScratch(for: replayer)
                for (k, script) in scripts.enumerated() {
                    guard let result = try? configuration.run(script, limits: RunLimits(maxStepsPerInstant: 5_000, maxSteps: 100_000)) else { continue }
                    var tally = ReplayTally(properties: rules.count)
                    var groups: [ReplayTally] = []
                    _ = tally.add(result, &scratch, groups: replayer.groups, into: &groups, waitRules: rules)
                    for rule in rules {
                        let judge = PropertyJudge.wait(of: PopupID(rule.popup), atMost: rule.limit, result, catalog.popups[rule.popup].name) != nil
                        #expect(scratch.waitFails[rule.property] == judge,
                                "seed \(seed) \(strategy) \(options) script \(k): wait \(catalog.popups[rule.popup].name) <= \(rule.limit)")
                        judged += 1
                        if judge { failing += 1 }
                    }
                }
            }
        }
        // Both verdicts are met often enough for the comparison to mean something.
        #expect(failing > judged / 20 && failing < judged * 19 / 20, "\(failing) of \(judged) failing")
    }
}
