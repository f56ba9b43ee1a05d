/// Runs of one strategy one after another on one thread, the engine's buffers kept from run to
/// run (a replay's users: the arrays, the heap, the timeline, the strategy's own when it resets
/// in place). What `StrategyEntry.makeRunner` gives; not for two threads at once.
///
/// Contract: a run gives the result a fresh engine would (`Engine.reset`); the result of one run
/// is let go before the next starts, or the next copies what it shares.
public protocol ScenarioRunner: AnyObject {
    func run(_ scenario: Scenario, options: ResolvedOptions, limits: RunLimits) throws(RunError) -> RunResult
}

/// A built-in strategy's runner: one engine, reset for each run. The run is a closure made where
/// the strategy's type is known (`StrategyEntry.init`), so that the engine's code is specialized
/// for it (a generic class's method reached through the protocol is not: it looked up generic
/// metadata at every step).
final class EngineRunner: ScenarioRunner {
    private let body: (Scenario, ResolvedOptions, RunLimits) throws(RunError) -> RunResult

    init<S: Strategy>(_ type: S.Type) {
        // The engine lives in a box and is reset and run in place: one kept in a local and
        // stored back copied the whole engine twice a run (36 retains and releases each).
        let box = EngineBox<S>()
        body = { (scenario, options, limits) throws(RunError) -> RunResult in
            if box.engine == nil {
                box.engine = Engine<S>(scenario: scenario, options: options, limits: limits)
            } else {
                box.engine?.reset(scenario: scenario, options: options, limits: limits)
            }
            defer { box.engine?.letGo() }
            if let result = try box.engine?.run() { return result }
            throw .invariant(strategy: S.name, time: 0, message: "the runner lost its engine")
        }
    }

    func run(_ scenario: Scenario, options: ResolvedOptions, limits: RunLimits) throws(RunError) -> RunResult {
        try body(scenario, options, limits)
    }
}

/// One thread's engine, kept from run to run.
private final class EngineBox<S: Strategy> {
    var engine: Engine<S>?
}

/// Any other entry's runner (a plug-in): each run as the entry runs it.
final class EntryRunner: ScenarioRunner {
    let entry: StrategyEntry

    init(_ entry: StrategyEntry) { self.entry = entry }

    func run(_ scenario: Scenario, options: ResolvedOptions, limits: RunLimits) throws(RunError) -> RunResult {
        try entry.run(scenario, options: options, limits: limits)
    }
}
