/// One thing a scenario makes happen: the body of an event, or of a `then` entry.
///
/// Kept to 9 bytes: the common cases carry a popup id, the rare large ones are boxed (`indirect`),
/// so a million-event script stays small (see Benchmarks/results.md).
public enum Action: Sendable {
    /// One popup handed to the scheduler (the common case: no allocation).
    case enqueue(PopupID)
    /// Several popups handed to the scheduler, in this order.
    case enqueueMany([PopupID])
    /// The user closes the popup: the same as pressing its `close` button.
    case dismiss(PopupID)
    indirect case press(PopupID, button: String)
    case set([(VariableID, StateValue)])
    case suspend
    case resume
    case trigger
    case remove(PopupID)
    case clear
    /// SwiftEntryKit's `dismiss(.enqueued)`, `.displayed` and `.prioritizedLowerOrEqualTo`: the
    /// app empties only the waiting list, only the screen, or both up to a priority.
    case clearQueue
    case clearScreen
    case clearUpTo(Int)
    /// The user holds display timers (hover, focus, a hidden document): not the scheduler's suspend.
    case pauseTimers(TimerTarget)
    case resumeTimers(TimerTarget)
    indirect case navigate(Navigation, then: [Action])

    /// Its entry in the vocabulary.
    public var kind: ActionKind {
        switch self {
        case .enqueue, .enqueueMany: return .enqueue
        case .dismiss: return .dismiss
        case .press: return .press
        case .set: return .set
        case .suspend: return .suspend
        case .resume: return .resume
        case .trigger: return .trigger
        case .remove: return .remove
        case .clear: return .clear
        case .clearQueue: return .clearQueue
        case .clearScreen: return .clearScreen
        case .clearUpTo: return .clearUpTo
        case .pauseTimers: return .pauseTimers
        case .resumeTimers: return .resumeTimers
        case .navigate(let n, _): return n.kind
        }
    }

    /// The word that names the action in a scenario file.
    public var keyword: String { kind.keyword }
}

/// Whose display timers a `pauseTimers` / `resumeTimers` event names.
public enum TimerTarget: Sendable, Equatable {
    /// Every popup (sonner's toaster-wide hover, a hidden document).
    case all
    /// One popup (notistack's hover over one snack).
    case popup(PopupID)

    /// Whether `p`'s timer is among those it names: a popup names its instances too (`Saved#2`,
    /// docs/engine.md "Instances"; the script names the file's popup).
    public func includes(_ p: PopupID, in world: World) -> Bool {
        if case .popup(let q) = self { return world.base(p) == q }
        return true
    }
}

/// A navigation-stack change (design.md §5a); `screen` follows it when the transition completes.
public enum Navigation: Sendable, Equatable {
    case push(String)
    case pop
    case popToRoot
    case popTo(String)
    case replace(String)

    public var kind: ActionKind {
        switch self {
        case .push: return .push
        case .pop: return .pop
        case .popToRoot: return .popToRoot
        case .popTo: return .popTo
        case .replace: return .replace
        }
    }

    public var keyword: String { kind.keyword }
}
