import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Issue 20, part 2: `Examples/plugins/notistack.py`, notistack reimplemented in Python as a
/// plug-in, gives byte-identical timelines (and pending lists) to the built-in `notistack` on
/// every bundled scenario, with the scenario's own notistack options given to both.
@Suite("plug-ins: the Python notistack equals the built-in one")
struct PluginEquivalenceTests {
    /// Four shards run side by side, each with its own plug-in process: the bundled scenarios by
    /// index modulo 4, then generated seeds (40 with `CI` set, 12 in the quick tier) likewise.
    @Test(arguments: 0..<4)
    func shard(_ k: Int) throws {
        let name = "exec:" + packageRoot.appendingPathComponent("Examples/plugins/notistack.py").path
        let plugin = try StrategyArguments.plugin(name, timeoutMs: 20_000)
        #expect(plugin.options.map(\.name) == StrategyRegistry.entry(named: "notistack")?.options.map(\.name))
        let set = StrategySet(extra: [plugin])
        let dir = packageRoot.appendingPathComponent("Scenarios").path
        let files = try FileIO.list(dir).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 80)
        for (i, file) in files.enumerated() where i % 4 == k {
            let scenario = try ScenarioSource.load(dir + "/" + file)
            let own = scenario.strategy == "notistack"
                ? scenario.options.map { OptionOverride(name: $0.name, value: $0.value.description) } : []
            let builtIn = try Pipeline.run(scenario, strategy: "notistack", overrides: own, limits: RunLimits(checkInvariants: true))
            let python = try Pipeline.run(scenario, strategy: name, overrides: own, limits: RunLimits(checkInvariants: true), strategies: set)
            #expect(TimelineText.render(python.timeline) == TimelineText.render(builtIn.timeline), "\(file)")
            #expect(python.pending == builtIn.pending, "\(file): pending")
        }
        for seed in 1...TestTier.count(quick: 12, full: 40) where seed % 4 == k {
            let text = ScenarioGenerator(events: 40, seed: UInt64(seed), popups: 6, strategy: "notistack").generate()
            let scenario = try loadScenario(text).get()
            let builtIn = try Pipeline.run(scenario, strategy: "notistack", limits: RunLimits(checkInvariants: true))
            let python = try Pipeline.run(scenario, strategy: name, limits: RunLimits(checkInvariants: true), strategies: set)
            #expect(TimelineText.render(python.timeline) == TimelineText.render(builtIn.timeline), "seed \(seed)")
            #expect(python.pending == builtIn.pending, "seed \(seed): pending")
        }
    }
}
