import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// One expected timeline: a scenario and a strategy with a `<name>.<strategy>.timeline` beside it.
struct Golden: CustomTestStringConvertible, Sendable {
    var scenario: String
    var strategy: String
    var testDescription: String { "\(scenario) [\(strategy)]" }

    var goldenPath: String { ScenarioSource.goldenPath(for: scenario, strategy: strategy) }

    /// The strategy to run and where its name is known: a bundled plug-in's golden
    /// (`<stem>.exec-<name>.timeline`) runs `Examples/plugins/<name>.py`.
    func resolved() throws -> (String, StrategySet) {
        guard strategy.hasPrefix("exec-") else { return (strategy, .builtIn) }
        let name = "exec:" + packageRoot.path + "/Examples/plugins/" + strategy.dropFirst(5) + ".py"
        return (name, StrategySet(extra: [try StrategyArguments.plugin(name, timeoutMs: 20_000)]))
    }

    /// Every golden in `Scenarios/`, plus the file's own strategy even when its golden is missing.
    static func all() -> [Golden] {
        let dir = packageRoot.appendingPathComponent("Scenarios").path
        let names = (try? FileIO.list(dir)) ?? []
        var out: [Golden] = []
        for name in names where name.hasSuffix(".json") {
            let path = "Scenarios/" + name
            let stem = String(name.dropLast(5))
            var strategies = names.filter { $0.hasPrefix(stem + ".") && $0.hasSuffix(".timeline") }
                .map { String($0.dropFirst(stem.count + 1).dropLast(".timeline".count)) }
            if let s = try? ScenarioSource.load(packageRoot.appendingPathComponent(path).path),
               let own = s.strategy, !strategies.contains(own) {
                strategies.append(own)
            }
            out += strategies.map { Golden(scenario: path, strategy: $0) }
        }
        return out
    }
}

@Suite("goldens: every bundled scenario against its expected timelines")
struct GoldenTests {
    @Test(arguments: Golden.all())
    func matchesExpectedTimeline(_ golden: Golden) throws {
        let root = packageRoot.path + "/"
        let expectedBytes = try FileIO.read(root + golden.goldenPath)
        let scenario = try ScenarioSource.load(root + golden.scenario)
        let (name, strategies) = try golden.resolved()
        let configuration = try RunConfiguration.resolve(scenario, strategy: name, overrides: [], strategies: strategies)
        let result = try configuration.run(scenario, limits: RunLimits(checkInvariants: true))
        let actual = TimelineText.render(result.timeline)
        #expect(actual == String(decoding: expectedBytes, as: UTF8.self),
                "run 'swift run popsim run \(golden.scenario) --strategy \(golden.strategy) --update' and review git diff")
        // The bundled stories keep the rules the generated runs keep: the ledger and the screen.
        let broken = GeneratedInvariantTests.violations(result) + GeneratedInvariantTests.ledgerViolations(result)
        #expect(broken.isEmpty, "\(golden): \(broken.joined(separator: "; "))")
    }

    @Test(arguments: Golden.all())
    func goldenIsCanonical(_ golden: Golden) throws {
        let text = String(decoding: try FileIO.read(packageRoot.path + "/" + golden.goldenPath), as: UTF8.self)
        let parsed = try TimelineTextParser.parse(text)
        #expect(TimelineText.render(parsed) == text)
        #expect(!text.contains("\r"))
    }

    @Test func thereAreGoldensForBothJCStrategies() {
        let all = Golden.all()
        #expect(all.filter { $0.strategy == "jc-fifo" }.count >= 5)
        #expect(all.filter { $0.strategy == "jc-lifo" }.count >= 5)
    }
}
