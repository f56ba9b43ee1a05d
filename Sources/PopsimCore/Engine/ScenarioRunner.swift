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
        var engine: Engine<S>?
        body = { (scenario, options, limits) throws(RunError) -> RunResult in
            var e: Engine<S>
            if var kept = engine.take() {
                kept.reset(scenario: scenario, options: options, limits: limits)
                e = kept
            } else {
                e = Engine<S>(scenario: scenario, options: options, limits: limits)
            }
            defer { engine = e }
            return try e.run()
        }
    }

    func run(_ scenario: Scenario, options: ResolvedOptions, limits: RunLimits) throws(RunError) -> RunResult {
        try body(scenario, options, limits)
    }
}

/// Any other entry's runner (a plug-in): each run as the entry runs it.
final class EntryRunner: ScenarioRunner {
    let entry: StrategyEntry

    init(_ entry: StrategyEntry) { self.entry = entry }

    func run(_ scenario: Scenario, options: ResolvedOptions, limits: RunLimits) throws(RunError) -> RunResult {
        try entry.run(scenario, options: options, limits: limits)
    }
}
