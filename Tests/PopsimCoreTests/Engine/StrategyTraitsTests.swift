import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// The engine reads a strategy's traits from the instance at the start of the run, so a strategy
/// whose rules come from its options (or another process) can set them per run.
@Suite("strategy traits")
struct StrategyTraitsTests {
    /// Shows everything at once; its instance says its timers start at `show`, though its type's
    /// default is `shown`.
    struct ConfiguredStrategy: Strategy {
        static let name = "configured"
        static let summary = "test: traits from the instance"
        static let options: [OptionSpec] = [.showMs(default: 0), .hideMs(default: 0), .navMs]
        static let buttonActions = ButtonActionTiming.atResponse

        init(world: World) {}

        mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
            if case .enqueued(let p) = happening, world.phase(p) == .hidden { decisions.show(p) }
        }

        func pending(in world: World) -> [PopupID] { [] }

        var traits: StrategyTraits {
            StrategyTraits(name: "configured-at-show", buttonActions: .atResponse, timerAnchor: .show, crossFades: false)
        }
    }

    @Test func theInstancesTraitsGovernTheRun() throws {
        let scenario = try loadScenario(#"{"popsim": 1, "popups": {"a": {"duration": 100, "showMs": 50}}, "events": [{"at": 0, "enqueue": "a"}]}"#).get()
        var engine = Engine<ConfiguredStrategy>(scenario: scenario, options: .defaults(of: ConfiguredStrategy.options), limits: RunLimits())
        let result = try engine.run()
        #expect(result.strategy == "configured-at-show")
        // Timed from `show` (0), not from `shown` (50): the hide is at 100.
        #expect(TimelineText.render(result.timeline) == "  0  enqueue  a\n  0  show     a\n 50  shown    a\n100  hide     a  duration\n")
    }
}
