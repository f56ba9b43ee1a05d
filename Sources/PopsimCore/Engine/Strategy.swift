/// One scheduler's policy, modelled on a real library (design.md §5).
///
/// The contract: the engine tells the strategy every happening in processing order and applies
/// the decisions it appends, in order, before telling it the next one. The strategy keeps its own
/// queue; the engine owns the clock, the screen, transitions, user responses and the checks.
/// A decision that breaks the engine's rules (show a visible popup, hide a hidden one, show a popup
/// never enqueued) stops the run with `RunError.strategyBroke`. Adding a strategy is one file plus one line in
/// `StrategyRegistry`.
public protocol Strategy: SendableMetatype {
    /// The name used in files and by callers, e.g. `jc-fifo`.
    static var name: String { get }
    /// One line for `popsim strategies`.
    static var summary: String { get }
    /// Every option it accepts, `showMs`, `hideMs` and `navMs` included, in display order.
    static var options: [OptionSpec] { get }
    /// The popup fields of `PopupField.strategyFields` it models; lint reports the others.
    static var modelledFields: [PopupField] { get }
    /// When a pressed button's `then` actions run.
    static var buttonActions: ButtonActionTiming { get }
    /// The script actions that reach it (`ActionKind.reachesStrategy`) that it models; lint
    /// reports the others.
    static var modelledActions: [ActionKind] { get }
    /// When a popup's display timer (`duration`) starts.
    static var timerAnchor: TimerAnchor { get }
    /// Whether the next popup may present while the previous one hides without that counting as
    /// an overlap (a cross-fade the library intends), rather than waiting for `gone`.
    static var crossFades: Bool { get }
    /// Whether a user's dismissal of a popup with `minMs` waits out the minimum (SwiftMessages:
    /// the close button and the swipe call `hide()`, which waits `delayHide`).
    static var userHidesWaitMinimum: Bool { get }
    /// Whether a waiting popup shows only when the app asks again (an `enqueue` or a `trigger`):
    /// nothing drains its queue by itself (braze-iam). Replay notes it for a trace without
    /// `trigger` rows.
    static var showsOnlyWhenAsked: Bool { get }
    /// Whether a request of a popup on screen or waiting is a new instance (`InstancePolicy`).
    static var instances: InstancePolicy { get }

    /// What it models under `options`: a strategy whose rules come from its options (a policy
    /// reads `when` only if its `conditions` knob says so) narrows its statics; by default them.
    static func modelled(under options: ResolvedOptions) -> (fields: [PopupField], actions: [ActionKind])

    /// Set when the strategy cannot go on (a plug-in that crashed or answered nonsense): the
    /// engine applies what it decided in that reply, then stops the run with this error. The
    /// engine knows no more of why; by default never. `failed` says whether there is one, read
    /// after every happening (cheaper than the error itself).
    var failure: RunError? { get }
    var failed: Bool { get }

    /// Whether `idle` could make it decide anything now; when false the engine does not tell it
    /// (it would return no decision and change nothing). By default always: a strategy says
    /// false only where its `handle(.idle)` provably does nothing. Most happenings of a replay are
    /// idle passes, and a tell costs ~70 instructions before the strategy looks at it.
    var hearsIdle: Bool { get }

    /// Problems of a scenario that only this strategy rejects (e.g. negative priorities for fg).
    static func validate(_ scenario: Scenario) -> [LoadError]

    init(world: World)

    /// The strategy at the start of another run of a scenario of the same popups (another user
    /// of a replay): as `init(world:)` would make it, in this one's storage if it can. By
    /// default, `init(world:)`.
    mutating func reset(world: World)

    /// Reacts to one happening by appending decisions. `world` shows the decisions only after this
    /// returns: a strategy that hides and then shows within one call must keep track itself.
    /// The built-in strategies mark it `@inline(__always)`: its one caller is the engine's `tell`,
    /// specialized per strategy, and a call per happening cost 2 % of a replay (callgrind).
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions)

    /// The popups still waiting in its queue when the run ends, in queue order.
    func pending(in world: World) -> [PopupID]

    /// Why `popup`, still waiting when the run ends, is held back by a rule (a condition,
    /// suspension, pacing) rather than waiting its turn; nil when nothing but the screen holds it.
    /// By default: its condition, when the strategy reads conditions and it does not hold.
    func heldBack(_ popup: PopupID, in world: World) -> HoldReason?

    /// Whether a user's dismissal of `popup`, on screen, goes unheard: the popup stays (its
    /// button's actions still run). By default never; Material's SnackbarManager does not hear
    /// a snackbar it keeps no record of (`mdc-snackbar`, M2 (c)).
    func ignoresUserDismissal(_ popup: PopupID, in world: World) -> Bool

    /// The engine made `instance`, a new instance of `base` (`InstancePolicy.perRequest`), just
    /// before it is enqueued: `world` has it already. A strategy that keeps something per popup
    /// makes room for it here; by default nothing.
    mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World)

    /// Its `InstancePolicy` under the run's options (by default `instances`): sonner and
    /// adw-toast make instances only when told the app makes a new toast per request.
    var instancePolicy: InstancePolicy { get }

    /// What the engine reads of it for the whole run (by default its statics).
    var traits: StrategyTraits { get }
}

/// When the actions of a pressed button run.
public enum ButtonActionTiming: Sendable {
    /// At the press itself (design.md default).
    case atResponse
    /// When the popup is gone: UIAlertController runs a button's handler after its dismissal.
    case atGone
}

/// When a popup's display timer starts.
public enum TimerAnchor: Sendable {
    /// At `show`, when the present animation starts (libadwaita, Android Toast, web toasts).
    case show
    /// At `shown`, when the present animation ends (the seeds, SwiftEntryKit, SwiftMessages, MDC).
    case shown
}

extension Strategy {
    public static var modelledFields: [PopupField] { [] }
    public static var modelledActions: [ActionKind] { [] }
    public static var timerAnchor: TimerAnchor { .shown }
    public static var crossFades: Bool { false }
    public static var userHidesWaitMinimum: Bool { false }
    public static var showsOnlyWhenAsked: Bool { false }
    public static var instances: InstancePolicy { .merge }

    public mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World) {}

    public var instancePolicy: InstancePolicy { Self.instances }

    public static func validate(_ scenario: Scenario) -> [LoadError] { [] }

    public static func modelled(under options: ResolvedOptions) -> (fields: [PopupField], actions: [ActionKind]) {
        (modelledFields, modelledActions)
    }

    public func heldBack(_ popup: PopupID, in world: World) -> HoldReason? { Self.conditionHold(popup, in: world) }

    public func ignoresUserDismissal(_ popup: PopupID, in world: World) -> Bool { false }

    public mutating func reset(world: World) { self = Self(world: world) }

    public var failure: RunError? { nil }
    public var failed: Bool { false }
    public var hearsIdle: Bool { true }

    /// `.condition` when the strategy reads `when` (under the run's options) and `popup`'s does
    /// not hold now.
    public static func conditionHold(_ popup: PopupID, in world: World) -> HoldReason? {
        guard !world.conditionHolds(popup), modelled(under: world.options).fields.contains(.when) else { return nil }
        return .condition
    }

    public var traits: StrategyTraits {
        StrategyTraits(name: Self.name, buttonActions: Self.buttonActions, timerAnchor: Self.timerAnchor,
                       crossFades: Self.crossFades, userHidesWaitMinimum: Self.userHidesWaitMinimum, instances: instancePolicy)
    }
}
