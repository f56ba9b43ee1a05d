/// What a row's `action` word names: an action of the scenario vocabulary (`ActionKind`), or what
/// production observed — `shown` (the popup appeared on screen), `dismissed` (the user
/// dismissed it) and `dropped` (production let a request of it go unseen: a duplicate merged, a
/// cap, a condition; its value may name the reason).
public enum TraceVerb: Sendable, Equatable {
    case action(ActionKind)
    case shown
    case dismissed
    case dropped

    /// Every verb, actions first in the vocabulary's order.
    public static let all: [TraceVerb] = ActionKind.allCases.map { .action($0) } + [.shown, .dismissed, .dropped]

    /// The word a trace writes.
    public var word: String {
        switch self {
        case .action(let kind): kind.keyword
        case .shown: "shown"
        case .dismissed: "dismissed"
        case .dropped: "dropped"
        }
    }

    /// Whether a row of it reads its value: a button (`press`, `dismissed`), state (`set`), a
    /// screen (`push`, `popTo`, `replace`), a priority (`clearUpTo`), a reason (`dropped`). The
    /// others take their popup from the popup column, or nothing.
    public var takesValue: Bool {
        switch self {
        case .action(let kind):
            switch kind.argument {
            case .press, .state, .screen, .priority: return true
            case .popups, .popup, .flag, .timerTarget: return false
            }
        case .dismissed, .dropped: return true
        case .shown: return false
        }
    }

    /// Its one byte in a packed row: an action's ordinal, then the observations.
    public var ordinal: UInt8 {
        switch self {
        case .action(let kind): kind.ordinal
        case .shown: UInt8(ActionKind.allCases.count)
        case .dismissed: UInt8(ActionKind.allCases.count + 1)
        case .dropped: UInt8(ActionKind.allCases.count + 2)
        }
    }

    /// The verb of an ordinal; nil for a byte no verb has. Without `all`: a global read lazily
    /// costs a call at every use, and a replay asks this of every row several times.
    public init?(ordinal: UInt8) {
        if let kind = ActionKind(ordinal: ordinal) {
            self = .action(kind)
        } else if ordinal == ActionKind.count {
            self = .shown
        } else if ordinal == ActionKind.count + 1 {
            self = .dismissed
        } else if ordinal == ActionKind.count + 2 {
            self = .dropped
        } else {
            return nil
        }
    }
}
