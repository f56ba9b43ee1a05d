/// How well a candidate agrees with production on a set of users: `fit`'s objective.
///
/// Users agree when the model shows the same popups in the same order as production's `shown`
/// rows (what `replay` counts as "agrees with production"). Between candidates that agree with
/// as many users, the one with more users agreeing in timing as well wins (`timed`: each show
/// and each dismissal within `Replayer.tolerance` of production's, as `replay` counts "agrees in
/// timing"), so that a model with the right order and the wrong timing no longer ties; then the
/// one whose shows overlap production's more: `matched` counts, per user,
/// the shows the model and production have in common popup by popup (min of the two counts), over
/// `shows`, both sides' shows (a Dice score, 2·matched/shows), so a candidate one wrong show away
/// scores above one that shows nothing right. Then fewer runs that did not settle.
///
/// Contract: every field is a sum of integers, so scores of parts of the users add up to the same
/// value in any order (any `--jobs`, any shard).
public struct FitScore: Sendable, Equatable {
    public var users = 0
    public var agreeing = 0
    /// Agreeing users whose shows and dismissals keep to production's times too.
    public var timed = 0
    public var matched = 0
    public var shows = 0
    /// Runs that stopped as runaways (`--max-steps`, `--max-lines`): they disagree.
    public var unsettled = 0

    public init() {}

    public mutating func merge(_ o: FitScore) {
        users += o.users
        agreeing += o.agreeing
        timed += o.timed
        matched += o.matched
        shows += o.shows
        unsettled += o.unsettled
    }

    /// Whether `self` scores strictly above `o` (read over the same users or, for the report, as
    /// shares of users of any size). Products are compared at full width: counts read back from a
    /// shard's report may be large.
    public func beats(_ o: FitScore) -> Bool {
        let agreement = Self.compare(agreeing, max(1, o.users), o.agreeing, max(1, users))
        if agreement != 0 { return agreement > 0 }
        let timing = Self.compare(timed, max(1, o.users), o.timed, max(1, users))
        if timing != 0 { return timing > 0 }
        // 2m/s against 2m'/s', cross-multiplied; no shows at all is a perfect overlap (1 of 2).
        let (n, d) = shows == 0 ? (1, 2) : (matched, shows), (on, od) = o.shows == 0 ? (1, 2) : (o.matched, o.shows)
        let overlap = Self.compare(n, od, on, d)
        if overlap != 0 { return overlap > 0 }
        return Self.compare(unsettled, max(1, o.users), o.unsettled, max(1, users)) < 0
    }

    /// The sign of a·b − c·d, for counts (not negative), without overflow.
    static func compare(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int {
        let x = UInt(max(0, a)).multipliedFullWidth(by: UInt(max(0, b))), y = UInt(max(0, c)).multipliedFullWidth(by: UInt(max(0, d)))
        if x.high != y.high { return x.high > y.high ? 1 : -1 }
        return x.low == y.low ? 0 : (x.low > y.low ? 1 : -1)
    }

    /// Whether the counts could be a score: none above what contains it.
    public var isConsistent: Bool {
        users >= 0 && agreeing >= 0 && unsettled >= 0 && matched >= 0 && agreeing <= users && timed >= 0 && timed <= agreeing && unsettled <= users && matched <= shows
    }
}
