/// What a strategy answers: the engine checks each one, applies it and logs it.
public enum Decision: Sendable, Equatable {
    /// Start presenting a queued popup.
    case show(PopupID)
    /// Start hiding a visible popup.
    case hide(PopupID, Reason)
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

    public mutating func show(_ p: PopupID) { list.append(.show(p)) }
    public mutating func hide(_ p: PopupID, _ reason: Reason) { list.append(.hide(p, reason)) }
    public mutating func drop(_ p: PopupID, _ reason: Reason) { list.append(.drop(p, reason)) }
    public mutating func requeue(_ p: PopupID, _ reason: Reason) { list.append(.requeue(p, reason)) }
    public mutating func warn(_ p: PopupID?, _ reason: Reason) { list.append(.warn(p, reason)) }
    public mutating func startTimer(after ms: Int, token: Int) { list.append(.startTimer(after: ms, token: token)) }

    mutating func removeAll() {
        if !list.isEmpty { list.removeAll(keepingCapacity: true) }
    }
}
