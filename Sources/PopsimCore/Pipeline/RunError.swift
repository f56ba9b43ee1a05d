/// Why a run stopped before its end.
public enum RunError: Error, Sendable, Equatable {
    /// A strategy decided something impossible: a bug in popsim (`isInternal`).
    case strategyBroke(strategy: String, time: Int, decision: String)
    /// The scenario never settles: too many steps at one instant or in all (the input's fault).
    case runaway(file: String, time: Int, limit: Int, perInstant: Bool)
    /// The timeline grew past `RunLimits.maxLines` (the input's fault, or a limit to raise).
    case tooManyLines(file: String, time: Int, limit: Int)
    /// An engine invariant failed while checks were on (tests): a bug in popsim (`isInternal`).
    case invariant(strategy: String, time: Int, message: String)
    /// A plug-in strategy could not be started, stopped answering, or answered something
    /// impossible: the plug-in's bug, not popsim's (exit 2). `time` is nil before the run
    /// (starting it, its handshake).
    case plugin(name: String, time: Int?, failure: PluginFailure)

    /// Whether the run stopped for being a runaway (a step or line limit): its scenario never
    /// settles, which is a finding about the input; nil for the other stops.
    public var settles: Bool? {
        switch self {
        case .runaway, .tooManyLines: return false
        case .strategyBroke, .invariant, .plugin: return nil
        }
    }

    /// Whether it is popsim's own bug (a strategy or the engine broke a rule), not the input's.
    public var isInternal: Bool {
        switch self {
        case .runaway, .tooManyLines, .plugin: return false
        case .strategyBroke, .invariant: return true
        }
    }
}

/// Bounds that make every run finish (design.md: no hang on any input).
public struct RunLimits: Sendable {
    /// Steps (happenings, `then` actions, idle rounds) at one instant beyond the script's own
    /// events, plus `stepsPerScriptEvent` for each script event at that instant.
    public var maxStepsPerInstant: Int = 100_000
    /// What each script event adds to its instant's step limit: a burst of a million arrivals
    /// makes a million times the happenings of one (shows, timers, drops), which is no runaway;
    /// a `then` chain or a self-feeding loop started by one event still stops near the limit.
    public static let stepsPerScriptEvent = 16
    /// Steps in the whole run beyond the script's own events.
    public var maxSteps: Int = 50_000_000
    /// Timeline lines a run may write: what bounds its memory (16 bytes a line, and the text
    /// of each) when a small scenario feeds itself until `until`; about 1.5 lines per script event.
    public var maxLines: Int = 5_000_000
    /// Check the engine's invariants after every step (tests turn this on).
    public var checkInvariants = false
    /// Record the state after every change (`RunResult.stateHistory`), for reports that judge
    /// conditions over the run (lint); off by default, as it copies the state at each change.
    public var recordStates = false
    /// Told the script events done and their total every 65,536 events, for a caller that shows
    /// progress on long runs (the core reads no clock: the caller decides when to show it).
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    public init(maxStepsPerInstant: Int = 100_000, maxSteps: Int = 50_000_000, checkInvariants: Bool = false,
                recordStates: Bool = false) {
        self.maxStepsPerInstant = maxStepsPerInstant
        self.maxSteps = maxSteps
        self.checkInvariants = checkInvariants
        self.recordStates = recordStates
    }
}

/// Everything a finished run produced.
public struct RunResult: Sendable {
    public var scenario: Scenario
    public var strategy: String
    public var options: ResolvedOptions
    public var timeline: Timeline
    /// Popups still queued at the end, in the strategy's queue order.
    public var pending: [PopupID]
    /// Per entry of `pending`, the rule that holds it back, if one does (`Strategy.heldBack`).
    public var heldBack: [HoldReason?] = []
    /// The last instant processed.
    public var end: Int
    /// Popups on screen when the run ended (presenting, shown or hiding), in popup order.
    public var onScreen: [PopupID] = []
    /// Script events after `until` that never ran.
    public var eventsNotRun = 0
    /// With `RunLimits.recordStates`: the state at the start and after every change, each with the
    /// number of timeline entries written before it took effect.
    public var stateHistory: [StateSnapshot] = []
    /// Whether the next popup could present while the last one hid without an overlap (the
    /// strategy's trait for this run: a policy's `handoff`, a plug-in's handshake).
    public var crossFades = false
}

/// The whole state from one moment of a run on.
public struct StateSnapshot: Sendable {
    /// Timeline entries written before this state took effect.
    public var position: Int
    public var values: [StateValue]
}
