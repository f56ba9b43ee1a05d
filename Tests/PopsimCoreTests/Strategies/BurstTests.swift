import Testing
@testable import PopsimCore
import PopsimTestSupport

/// A burst of arrivals at one instant is legitimate input (a server push of thousands): it must
/// run to its end under every strategy, without tripping the per-instant step limit meant for
/// runaway loops, even when everything it started ends together at a later instant.
@Suite("bursts at one instant")
struct BurstTests {
    static func burst(_ n: Int, duration: Int?) -> String {
        let popup = duration.map { #"{"duration": \#($0)}"# } ?? "{}"
        let popups = (0..<n).map { #""p\#($0)": \#(popup)"# }.joined(separator: ",")
        let events = (0..<n).map { #"{"at": 0, "enqueue": "p\#($0)"}"# }.joined(separator: ",")
        return #"{"popsim": 1, "popups": {\#(popups)}, "events": [\#(events)]}"#
    }

    @Test(arguments: StrategyRegistry.all.map(\.name))
    func aBurstSettlesWithinTheStepLimit(_ strategy: String) throws {
        // The per-instant limit is far below the burst: only the burst's own allowance and the
        // happenings it scheduled for later let it through.
        let limits = RunLimits(maxStepsPerInstant: 500, maxSteps: 1_000_000, checkInvariants: false)
        for duration in [nil, 1000] {
            let scenario = try loadScenario(Self.burst(3000, duration: duration)).get()
            let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: [])
            let result = try configuration.run(scenario, limits: limits)
            let enqueued = result.timeline.entries.filter { $0.event == .enqueue }.count
            #expect(enqueued == 3000, "\(strategy) duration \(String(describing: duration))")
            #expect(result.eventsNotRun == 0)
        }
    }

    @Test func aSelfFeedingLoopStillStopsNearTheLimit() throws {
        let loop = #"""
            {"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"loop": {"respond": {"after": 0}, "then": {"close": [{"enqueue": "loop"}]}}},
             "events": [{"at": 0, "enqueue": "loop"}]}
            """#
        let scenario = try loadScenario(loop).get()
        let configuration = try RunConfiguration.resolve(scenario, strategy: "jc-fifo", overrides: [])
        #expect(throws: RunError.runaway(file: "test.json", time: 0, limit: 500, perInstant: true)) {
            try configuration.run(scenario, limits: RunLimits(maxStepsPerInstant: 500))
        }
    }
}
