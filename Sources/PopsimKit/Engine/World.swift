/// The read-only view of a run that a strategy gets with every happening.
///
/// A class so that passing it costs nothing; only the engine mutates it.
public final class World {
    public let scenario: Scenario
    public let options: ResolvedOptions
    public internal(set) var now: Int = 0
    public internal(set) var state: [StateValue]
    public internal(set) var phases: [Phase]

    init(scenario: Scenario, options: ResolvedOptions) {
        self.scenario = scenario
        self.options = options
        self.state = scenario.state.initial
        self.phases = Array(repeating: .hidden, count: scenario.popups.count)
    }

    public func phase(_ p: PopupID) -> Phase { phases[Int(p.index)] }

    public func popup(_ p: PopupID) -> Popup { scenario.popups[Int(p.index)] }

    /// Whether the popup's `when` holds now (a popup without one always may show).
    public func conditionHolds(_ p: PopupID) -> Bool {
        guard let condition = scenario.popups[Int(p.index)].when else { return true }
        return condition.holds(state)
    }
}
