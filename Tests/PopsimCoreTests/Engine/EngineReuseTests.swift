import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// A runner that keeps its engine from run to run (`StrategyEntry.makeRunner`, what replay's
/// workers use) gives every run the result a fresh engine gives: the same timeline, the same
/// pending popups, the same end — under every strategy at every option value the invariant suite
/// runs, on scripts of one catalog that differ in their events and their users' answers.
@Suite("engine reused from run to run")
struct EngineReuseTests {
    /// Scripts of one catalog: the generated one, prefixes of it, a later part of it shifted to
    /// start at 0, each with the popups' answers changed as a replay's users change them.
    static func scripts(seed: UInt64) throws -> [Scenario] {
        let text = ScenarioGenerator(events: 60, seed: seed, popups: 6).generate()
        let base = try loadScenario(text).get()
        var out: [Scenario] = []
        var random = SplitMix64(seed: seed ^ 0x5eed)
        for cut in [60, 7, 33, 0, 60, 18] {
            var s = base
            s.events = Array(base.events.prefix(cut))
            if cut == 18, let first = base.events.dropFirst(30).first {
                s.events = base.events.dropFirst(30).map { e in
                    ScenarioEvent(at: e.at - first.at, action: e.action, index: e.index, location: e.location)
                }
            }
            for i in s.popups.indices where random.below(2) == 0 {
                s.popups[i].respond = Response(after: random.below(3000), button: random.below(3) == 0 ? "close" : "ok")
            }
            out.append(s)
        }
        return out
    }

    @Test(arguments: 0..<4)
    func aReusedEngineRunsAsAFreshOne(_ block: Int) throws {
        for seed in (block * 10 + 1)...(block * 10 + TestTier.count(quick: 2, full: 10)) {
            let scripts = try Self.scripts(seed: UInt64(seed))
            for (strategy, options) in GeneratedInvariantTests.configurations {
                let configuration = try RunConfiguration.resolve(scripts[0], strategy: strategy, overrides: OptionOverride.parseAll(options))
                let limits = RunLimits(maxStepsPerInstant: 5_000, maxSteps: 100_000, checkInvariants: true)
                let runner = configuration.entry.makeRunner()
                for (k, script) in scripts.enumerated() {
                    let label = "seed \(seed) \(strategy) \(options) script \(k)"
                    let fresh = Result(catching: { () throws(RunError) -> RunResult in try configuration.run(script, limits: limits) })
                    let reused = Result(catching: { () throws(RunError) -> RunResult in try runner.run(script, options: configuration.options, limits: limits) })
                    switch (fresh, reused) {
                    case (.success(let a), .success(let b)):
                        #expect(TimelineText.render(b.timeline) == TimelineText.render(a.timeline), "\(label): timelines differ")
                        #expect(b.pending == a.pending && b.end == a.end && b.onScreen == a.onScreen, "\(label): the end differs")
                    case (.failure(let a), .failure(let b)):
                        #expect(a == b, "\(label)")
                    default:
                        Issue.record("\(label): one run stopped, the other did not")
                    }
                }
            }
        }
    }
}
