import Testing
@testable import PopsimCore
import PopsimTestSupport

/// A burst is linear in its size under every strategy (issue 66, causes 11, 16 and 17): a list
/// of requests raises the instant's step limit per request, as as many events do; keyed's queues
/// drain without moving what waits; SwiftEntryKit's window removes any view without a search.
/// (Times are `Benchmarks/run`'s to check: these check the behaviour the faster code keeps.)
@Suite("bursts are linear")
struct BurstsAreLinearTests {
    @Test(arguments: StrategyRegistry.all.map(\.name))
    func aListOfRequestsRaisesTheLimitPerRequest(_ strategy: String) throws {
        let n = 3000
        let popups = (0..<n).map { #""p\#($0)": {"duration": 1000}"# }.joined(separator: ",")
        let list = (0..<n).map { #""p\#($0)""# }.joined(separator: ",")
        let text = #"{"popsim": 1, "popups": {\#(popups)}, "events": [{"at": 0, "enqueue": [\#(list)]}]}"#
        let scenario = try loadScenario(text).get()
        let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: [])
        let result = try configuration.run(scenario, limits: RunLimits(maxStepsPerInstant: 500, maxSteps: 1_000_000, checkInvariants: false))
        #expect(result.timeline.entries.filter { $0.event == .enqueue }.count == n, "\(strategy)")
    }

    /// The window against the array it replaced, on random appends and removals: the same
    /// newest view, emptiness and membership after every step.
    @Test func theWindowKeepsAnArraysOrder() {
        var window = WindowViews(), model: [PopupID] = []
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<20_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let p = PopupID(Int(seed >> 60))
            if (seed >> 20) % 3 == 0 {
                window.remove(p)
                if let i = model.firstIndex(of: p) { model.remove(at: i) }
            } else {
                window.append(p)
                model.append(p)
            }
            #expect(window.last == model.last && window.isEmpty == model.isEmpty)
            let q = PopupID(Int((seed >> 40) % 16))
            #expect(window.contains(q) == model.contains(q))
        }
    }

    /// Keyed's and SwiftEntryKit's bursts of one popup's requests keep their timelines: every
    /// request shown or dropped as before, in order.
    @Test(arguments: ["keyed", "entrykit"])
    func aBurstOfOnePopupDrainsInOrder(_ strategy: String) throws {
        let n = 2000
        let events = (0..<n).map { _ in #"{"at": 0, "enqueue": "a"}"# }.joined(separator: ",")
        let text = #"{"popsim": 1, "options": {"showMs": 0, "hideMs": 0}, "popups": {"a": {"duration": 10}}, "events": [\#(events)]}"#
        let scenario = try loadScenario(text).get()
        let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: [])
        let result = try configuration.run(scenario, limits: RunLimits(maxStepsPerInstant: 500, maxSteps: 10_000_000, checkInvariants: true))
        let shows = result.timeline.entries.filter { $0.event == .show }.count
        let drops = result.timeline.entries.filter { $0.event == .drop }.count
        #expect(shows + drops >= 1 && shows <= n, "\(strategy): \(shows) shown, \(drops) dropped")
        #expect(result.eventsNotRun == 0)
    }
}
