import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

@Suite struct GenTests {
    @Test func sha256IsRight() {
        #expect(sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func theSameSeedGivesTheSameBytes() {
        var a = Console(), b = Console()
        #expect(Popsim.main(["gen", "--events", "200", "--seed", "7"], console: &a) == .success)
        #expect(Popsim.main(["gen", "--events", "200", "--seed", "7"], console: &b) == .success)
        #expect(a.stdout == b.stdout)
        // Pinned: a change here changes every generated scenario, benchmarks included.
        #expect(sha256Hex(Array(a.stdout.utf8)) == "542f13c178b2ec61d23873e14767b79954eef78deda36815d471f12bb124b7a8")
        var c = Console()
        _ = Popsim.main(["gen", "--events", "200", "--seed", "8"], console: &c)
        #expect(c.stdout != a.stdout)
    }

    @Test func generatedScenariosLoadAndRunUnderEveryStrategy() throws {
        for seed in 1...3 {
            let text = ScenarioGenerator(events: 500, seed: UInt64(seed), popups: 20).generate()
            let scenario = try loadScenario(text).get()
            #expect(scenario.events.count == 500)
            for entry in StrategyRegistry.all {
                let options = ResolvedOptions.defaults(of: entry.options)
                let result = try entry.run(scenario, options: options, limits: RunLimits(checkInvariants: true))
                #expect(!result.timeline.entries.isEmpty)
            }
        }
    }

    @Test func mixWeightsShapeTheScript() throws {
        let text = ScenarioGenerator(events: 300, seed: 1, mix: [(.enqueue, 1), (.dismiss, 0)]).generate()
        let scenario = try loadScenario(text).get()
        #expect(scenario.events.allSatisfy { $0.action.keyword == "enqueue" })
    }

    @Test(arguments: [
        (["gen", "--events", "-1"], #"popsim: gen: --events: expected an integer from 0 to 100000000, got "-1""#),
        (["gen", "--mix", "enqueue=x"], #"popsim: gen: --mix: expected kind=weight with a kind among \#(ActionKind.allCases.map(\.keyword).joined(separator: ", ")), got "enqueue=x""#),
        (["gen", "--mix", "enqueue=0"], "popsim: gen: --mix: every weight is 0"),
        (["gen", "--strategy", "nope"], #"popsim: gen: --strategy: unknown strategy "nope" (known: \#(knownStrategies))"#),
    ])
    func badUsage(_ arguments: [String], _ message: String) {
        var console = Console()
        #expect(Popsim.main(arguments, console: &console) == .badInput)
        #expect(console.stderr == message + "\n")
    }
}
