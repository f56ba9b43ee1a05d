/// The ledger (docs/engine.md, "The ledger"): what one timeline line does to its popup's open
/// requests. Declared once; the invariant suite, the charts and compare read it.
public enum LedgerEffect: Sendable, Equatable {
    /// A new request: an `enqueue`, a `requeue`, a hide that puts the popup back to waiting.
    case opens
    /// The end of one request: a `show`, a `drop`, a `warning … lost`.
    case settles
    /// Nothing for the ledger.
    case none
}

extension Timeline.Entry {
    public var ledger: LedgerEffect {
        switch event {
        case .enqueue, .requeue: return .opens
        case .hide where reason?.hideKeepsRequest == true: return .opens
        case .show, .drop: return .settles
        case .warning where reason?.warningEndsRequest == true: return .settles
        default: return .none
        }
    }
}
