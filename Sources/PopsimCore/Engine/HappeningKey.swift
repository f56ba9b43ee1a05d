/// The one ordering key of every pending happening (design.md §4).
///
/// Order: time in ms, then the fixed class (transition completions, then timers, then scenario
/// events), then a monotonic sequence number (the order the happening was scheduled, or file order
/// for scenario events). No two keys are equal, so the order never depends on heap layout.
/// A happening scheduled for the current instant with a lower class than the one being processed
/// runs next: a zero-length transition started by an event completes before the next event.
public struct HappeningKey: Comparable, Sendable {
    public var time: Int
    public var order: HappeningClass
    public var sequence: Int

    public static func < (a: HappeningKey, b: HappeningKey) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.order != b.order { return a.order.rawValue < b.order.rawValue }
        return a.sequence < b.sequence
    }
}

/// The fixed classes of happenings within one instant, in processing order.
public enum HappeningClass: UInt8, Sendable {
    case transition = 0
    case timer = 1
    case scenarioEvent = 2
}

extension Int {
    /// `self + other`, at `Int.max` (or `Int.min`) instead of overflowing: every time sum in
    /// popsim saturates, so no input can trap.
    @inline(__always)
    package func plus(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}

extension Int {
    /// `self * other` for counts >= 0, at `Int.max` instead of overflowing (sizes of variant spaces).
    package func times(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? Int.max : product
    }
}
