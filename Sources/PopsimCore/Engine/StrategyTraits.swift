/// What the engine asks of a strategy beside its decisions, fixed for a whole run: its name, when
/// a pressed button's actions run, when a display timer starts, whether the next popup may
/// present while the last one hides, and whether a user's dismissal waits out `minMs`.
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
    /// A user's dismissal (a press, `dismiss`, a `respond`) of a popup with `minMs` waits until it
    /// has been on screen that long since its show, as a hide the app asks for does.
    public var userHidesWaitMinimum: Bool
    /// Whether a request of a popup on screen or waiting is a new instance of it.
    public var instances: InstancePolicy

    public init(name: String, buttonActions: ButtonActionTiming, timerAnchor: TimerAnchor, crossFades: Bool,
                userHidesWaitMinimum: Bool = false, instances: InstancePolicy = .merge) {
        self.name = name
        self.buttonActions = buttonActions
        self.timerAnchor = timerAnchor
        self.crossFades = crossFades
        self.userHidesWaitMinimum = userHidesWaitMinimum
        self.instances = instances
    }
}
