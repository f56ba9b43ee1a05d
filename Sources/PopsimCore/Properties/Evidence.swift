/// What broke a property, as data: the reports word it (`EvidenceText`, in PopsimReports), so the
/// core builds no sentences (docs/architecture.md). Names are the scenario's popup names.
public enum Evidence: Sendable, Equatable {
    /// `no <reason>`: the first such warning.
    case warning(subject: String, reason: Reason, at: Int)
    /// `no pending`: what was still queued when the run ended.
    case stillQueued(names: [String], end: Int)
    /// `shown x`: x never showed (and was perhaps never enqueued).
    case neverShown(name: String, enqueued: Bool)
    /// `never shown x`: x's first show.
    case shown(name: String, at: Int)
    /// `x before y`: y showed first; x showed later, or never (`xAt` nil).
    case shownFirst(name: String, at: Int, other: String, otherAt: Int?)
    /// `wait x <= n`: a request of x answered too late.
    case waited(name: String, requested: Int, shown: Int)
    /// `wait x <= n`: a request of x still open when the run ended.
    case stillWaiting(name: String, requested: Int, end: Int)
    /// `visible <= n`: how many were on screen at an instant, and which.
    case onScreen(count: Int, at: Int, names: [String])
    /// `shows [x] <= n per w`: `count` shows (of x, or of any popup) from `from` to `to`.
    case shows(count: Int, of: String?, from: Int, to: Int, window: Int)
}

/// Why a property that holds holds only in part: `wait x` requests that were dropped (a drop
/// settles a request; its wait is not judged), said so a vacuous pass is visible.
public struct PartialHold: Sendable, Equatable {
    public var name: String
    /// When each dropped request was dropped, in time order (at least one).
    public var dropped: [Int]
    /// Whether x was shown as well.
    public var shown: Bool
}
