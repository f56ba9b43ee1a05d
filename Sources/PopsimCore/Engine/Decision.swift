/// What a strategy answers: the engine checks each one, applies it and logs it.
public enum Decision: Sendable, Equatable {
    /// Start presenting a queued popup; `ms` overrides its present time (e.g. a replace animation);
    /// `reason` is logged (`uncovered`).
    case show(PopupID, ms: Int?, reason: Reason?)
    /// Start hiding a visible popup; `ms` overrides its dismiss time (e.g. a pop animation).
    case hide(PopupID, Reason, ms: Int?)
    /// End a leaving popup's exit animation `after` ms from now (0: it is `gone` at once): a
    /// library that removes a view in the middle of its exit animation (Material's Snackbar, a
    /// second `onDismissed`), or animates a leaving view out again, sooner (SwiftEntryKit's pop).
    case endExit(PopupID, after: Int)
    /// Start the popup's display timer afresh (a re-sent popup that the library restarts), with
    /// its full duration or `ms`.
    case restartTimer(PopupID, ms: Int?)
    /// Stop the popup's display timer (a pause; the strategy keeps what is left).
    case stopTimer(PopupID)
    /// The scheduler lets go of a queued popup for good.
    case drop(PopupID, Reason)
    /// A popup taken off screen goes back into the queue.
    case requeue(PopupID, Reason)
    /// A hazard of the real library (`lost`, `overlap`, `stalled`).
    case warn(PopupID?, Reason)
    /// Call back with `.timer(token)` after `after` ms.
    case startTimer(after: Int, token: Int)
}

/// The strategy's answers to one happening, applied in order after it returns.
public struct Decisions: Sendable {
    public private(set) var list: [Decision] = []

    public init() {}

    public var isEmpty: Bool { list.isEmpty }

    public mutating func show(_ p: PopupID, ms: Int? = nil, reason: Reason? = nil) { list.append(.show(p, ms: ms, reason: reason)) }
    public mutating func hide(_ p: PopupID, _ reason: Reason, ms: Int? = nil) { list.append(.hide(p, reason, ms: ms)) }
    public mutating func restartTimer(_ p: PopupID, ms: Int? = nil) { list.append(.restartTimer(p, ms: ms)) }
    public mutating func stopTimer(_ p: PopupID) { list.append(.stopTimer(p)) }
    public mutating func endExit(_ p: PopupID, after ms: Int = 0) { list.append(.endExit(p, after: ms)) }
    public mutating func drop(_ p: PopupID, _ reason: Reason) { list.append(.drop(p, reason)) }
    public mutating func requeue(_ p: PopupID, _ reason: Reason) { list.append(.requeue(p, reason)) }
    public mutating func warn(_ p: PopupID?, _ reason: Reason) { list.append(.warn(p, reason)) }
    public mutating func startTimer(after ms: Int, token: Int) { list.append(.startTimer(after: ms, token: token)) }
    mutating func append(_ d: Decision) { list.append(d) }

    @inline(__always)
    mutating func removeAll() {
        list.empty()
    }
}
