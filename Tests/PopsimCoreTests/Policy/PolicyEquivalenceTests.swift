import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Issue 20, part 1: the bundled strategies whose rules a policy expresses without their quirks
/// (jc-fifo, notistack) give the same timelines as their policy file in `Examples/policies/`,
/// on every bundled scenario and on generated ones.
@Suite("policy: jc-fifo and notistack as policies give identical timelines")
struct PolicyEquivalenceTests {
    /// A built-in strategy, its policy file, and how a scenario's own options for the built-in
    /// read as policy options.
    struct Pair: Sendable, CustomTestStringConvertible {
        var strategy: String
        var translate: @Sendable (OptionSetting) -> String?
        var testDescription: String { strategy }
    }

    static let pairs = [
        Pair(strategy: "jc-fifo", translate: { _ in nil }),
        Pair(strategy: "notistack", translate: { setting in
            switch (setting.name, setting.value) {
            case ("dedupe", .text(let on)): return "dedupe=" + (on == "on" ? "visible" : "off")
            case ("overflow", .text(let rule)): return "overflow=" + rule
            case ("slots", .integer(let n)): return "slots=\(n)"
            case ("duration", .integer(let n)): return "duration=\(n)"
            default: return nil
            }
        }),
    ]

    static func policy(_ strategy: String) throws -> StrategySet {
        let path = packageRoot.appendingPathComponent("Examples/policies/\(strategy).json").path
        switch ScenarioLoader.loadPolicy(try FileIO.read(path), file: path, catalog: StrategyRegistry.catalog) {
        case .success(let settings): return StrategySet(extra: [.policy(file: path, settings: settings)])
        case .failure(let errors): throw TestFailure(errors.errors.map(\.line).joined(separator: "\n"))
        }
    }

    /// The run under the built-in strategy and under its policy, as timeline text and pending list.
    /// A scenario written for `policy` keeps only the options every strategy has, as under the
    /// built-in strategy: its own rules would override the policy file's.
    static func plain(_ given: Scenario) -> Scenario {
        var scenario = given
        if scenario.strategy == ScenarioLoader.policyStrategy {
            scenario.strategy = nil
            scenario.options = scenario.options.filter { OptionSpec.shared.contains($0.name) }
        }
        return scenario
    }

    static func both(_ given: Scenario, _ pair: Pair, set: StrategySet) throws -> (String, String) {
        let scenario = plain(given)
        let limits = RunLimits(checkInvariants: true)
        let builtIn = try Pipeline.run(scenario, strategy: pair.strategy, limits: limits)
        let own = scenario.strategy == pair.strategy ? scenario.options.compactMap(pair.translate) : []
        let policy = try Pipeline.run(scenario, strategy: "policy", overrides: OptionOverride.parseAll(own),
                                      limits: limits, strategies: set)
        func text(_ r: RunResult) -> String {
            TimelineText.render(r.timeline) + "pending: " + r.pending.map { scenario.name(of: $0) }.joined(separator: " ")
        }
        return (text(builtIn), text(policy))
    }

    @Test(arguments: pairs)
    func everyBundledScenario(_ pair: Pair) throws {
        let set = try Self.policy(pair.strategy)
        let dir = packageRoot.appendingPathComponent("Scenarios").path
        var compared = 0
        for name in try FileIO.list(dir) where name.hasSuffix(".json") {
            let scenario = try ScenarioSource.load(dir + "/" + name)
            let (builtIn, policy) = try Self.both(scenario, pair, set: set)
            #expect(builtIn == policy, "\(name): \(pair.strategy) and its policy differ")
            compared += 1
        }
        #expect(compared >= 80)
    }

    /// What run and lint say is ignored follows the knobs: jc-fifo's policy ignores what jc-fifo does.
    @Test func jcFIFOsPolicyIgnoresWhatJCFIFODoes() throws {
        let set = try Self.policy("jc-fifo")
        let dir = packageRoot.appendingPathComponent("Scenarios").path
        for name in try FileIO.list(dir) where name.hasSuffix(".json") {
            let scenario = Self.plain(try ScenarioSource.load(dir + "/" + name))
            let builtIn = try Pipeline.run(scenario, strategy: "jc-fifo")
            let policy = try Pipeline.run(scenario, strategy: "policy", strategies: set)
            #expect(Lint.ignoredSummary(policy, strategies: set).map { $0.replacingOccurrences(of: ": policy ignores", with: ": jc-fifo ignores") }
                    == Lint.ignoredSummary(builtIn), "\(name)")
        }
    }

    @Test(arguments: pairs)
    func generatedScenarios(_ pair: Pair) throws {
        let set = try Self.policy(pair.strategy)
        for seed in 1...TestTier.count(quick: 60, full: 300) {
            let text = ScenarioGenerator(events: 40, seed: UInt64(seed), popups: 6, strategy: pair.strategy).generate()
            guard case .success(let scenario) = loadScenario(text) else { throw TestFailure("seed \(seed) does not load") }
            let (builtIn, policy) = try Self.both(scenario, pair, set: set)
            #expect(builtIn == policy, "seed \(seed): \(pair.strategy) and its policy differ")
        }
    }
}
