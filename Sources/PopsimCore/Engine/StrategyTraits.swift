/// What the engine asks of a strategy beside its decisions, fixed for a whole run: its name, when
/// a pressed button's actions run, when a display timer starts, and whether the next popup may
/// present while the last one hides.
///
/// Why a value and not only the strategy type's statics: a strategy whose rules come from its
/// options (a declared policy) or from another process (a plug-in's handshake) knows these only
/// when the run starts. The engine reads them once, at its start; a compiled strategy's are its
/// statics (`Strategy.traits`' default).
public struct StrategyTraits: Sendable, Equatable {
    public var name: String
    public var buttonActions: ButtonActionTiming
    public var timerAnchor: TimerAnchor
    public var crossFades: Bool

    public init(name: String, buttonActions: ButtonActionTiming, timerAnchor: TimerAnchor, crossFades: Bool) {
        self.name = name
        self.buttonActions = buttonActions
        self.timerAnchor = timerAnchor
        self.crossFades = crossFades
    }
}
