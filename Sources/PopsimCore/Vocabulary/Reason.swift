/// Why something on the timeline happened; rendered as its raw value. What each reason means for
/// the ledger, for compare's metrics and for lint is declared here once (`hideKeepsRequest`,
/// `isPreemption`, `isHazard`, `namesScreen`) and read by every report.
public enum Reason: String, Sendable, CaseIterable {
    /// The user responded (a `dismiss`, a `press` or a `respond`).
    case user
    /// A popup with `duration` hid itself.
    case duration
    /// A more important popup took the screen.
    case preempted
    /// Hidden to make room, and put back in the queue.
    case latent
    /// Dropped by its own `switch: discard` or `untriggered: discard`.
    case discard
    /// Dropped because its condition failed.
    case condition
    case removed
    case cleared
    case end
    /// JCPresentQueue LIFO pushes the shown popup off screen until the newer ones are dismissed.
    case temporary
    /// Two popups on a one-slot screen: the hazard a user runs popsim to find.
    case overlap
    /// The real library loses track of a popup: it will never show again.
    case lost
    /// The real library stops showing anything.
    case stalled
    /// The script acted on a popup that was not fully shown, so nothing happened.
    case notShown = "not-shown"
    /// A navigation event named a screen that is not on the stack.
    case notOnStack = "not-on-stack"
    /// The request merged into an entry the scheduler already has (queued or on screen): it
    /// settles nothing of its own.
    case duplicate
    /// The real library stopped tracking a popup that is still on screen (it was shown already).
    case untracked
    /// A newer popup took the slot or the single pending place; no priority involved.
    case replaced
    /// The popup on screen is more important, so the newcomer is neither shown nor queued.
    case outranked
    /// Hidden under newer popups beyond the visible limit, not dismissed (its timer may run on).
    case covered
    /// Back on screen once the popups above it have gone.
    case uncovered
    /// A multi-slot screen made room for a newcomer by dismissing an older popup.
    case evicted
    /// The queue cap was reached.
    case overflow
    /// A sliding-window quota was used up when the popup's turn came.
    case rateLimit = "rate-limit"
    /// It arrived within the minimum interval since the last display.
    case cooldown
    /// Its time to live ran out before it could show.
    case expired
    /// A display cap (per day, or in its lifetime) was used up.
    case quota
    /// The script answered a popup it never enqueued, so nothing happened.
    case notEnqueued = "not-enqueued"
    /// The real library called the show of a popup that is already on screen (or leaving) again:
    /// no new request, but the user may see it again (FGPopupScheduler, issue 29).
    case shownAgain = "shown-again"

    /// On a `hide` line: the popup goes back to waiting, so the hide opens a request of its own
    /// (JCPresentQueue's temporary hide, sonner's cover).
    public var hideKeepsRequest: Bool { self == .temporary || self == .covered }

    /// On a `hide` line: a more important or newer popup pushed it off screen (compare counts these).
    public var isPreemption: Bool { self == .preempted || self == .temporary || self == .covered }

    /// On a `warning` line: a hazard of the real library, what lint exits 1 for.
    public var isHazard: Bool {
        switch self {
        case .lost, .overlap, .untracked, .stalled, .shownAgain: return true
        default: return false
        }
    }

    /// On a `drop` line: a reason a request may be let go for unseen (what the CSV report keeps
    /// a column of, whatever the data: a column appears only when non-zero broke dashboards).
    public var dropsRequest: Bool {
        switch self {
        case .discard, .condition, .removed, .cleared, .duplicate, .replaced, .outranked, .overflow, .rateLimit, .cooldown, .expired, .quota,
             .duration:
            return true
        default: return false
        }
    }

    /// On a `warning` line: the request ends here (it will never show).
    public var warningEndsRequest: Bool { self == .lost }

    /// The line's subject is a screen, not a popup.
    public var namesScreen: Bool { self == .notOnStack }

    /// Its position in `allCases`, for table lookups without hashing.
    package var ordinal: Int {
        switch self {
        case .user: return 0
        case .duration: return 1
        case .preempted: return 2
        case .latent: return 3
        case .discard: return 4
        case .condition: return 5
        case .removed: return 6
        case .cleared: return 7
        case .end: return 8
        case .temporary: return 9
        case .overlap: return 10
        case .lost: return 11
        case .stalled: return 12
        case .notShown: return 13
        case .notOnStack: return 14
        case .duplicate: return 15
        case .untracked: return 16
        case .replaced: return 17
        case .outranked: return 18
        case .covered: return 19
        case .uncovered: return 20
        case .evicted: return 21
        case .overflow: return 22
        case .rateLimit: return 23
        case .cooldown: return 24
        case .expired: return 25
        case .quota: return 26
        case .notEnqueued: return 27
        case .shownAgain: return 28
        }
    }
}
