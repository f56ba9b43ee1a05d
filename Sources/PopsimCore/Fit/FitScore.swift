/// How well a candidate agrees with production on a set of users: `fit`'s objective.
///
/// Users agree when the model shows the same popups in the same order as production's `shown`
/// rows (what `replay` counts as "agrees with production"). Between candidates that agree with
/// as many users, the one whose shows overlap production's more wins: `matched` counts, per user,
/// the shows the model and production have in common popup by popup (min of the two counts), over
/// `shows`, both sides' shows (a Dice score, 2·matched/shows), so a candidate one wrong show away
/// scores above one that shows nothing right. Then fewer runs that did not settle.
///
/// Contract: every field is a sum of integers, so scores of parts of the users add up to the same
/// value in any order (any `--jobs`, any shard).
public struct FitScore: Sendable, Equatable {
    public var users = 0
    public var agreeing = 0
    public var matched = 0
    public var shows = 0
    /// Runs that stopped as runaways (`--max-steps`, `--max-lines`): they disagree.
    public var unsettled = 0

    public init() {}

    public mutating func merge(_ o: FitScore) {
        users += o.users
        agreeing += o.agreeing
        matched += o.matched
        shows += o.shows
        unsettled += o.unsettled
    }

    /// Whether `self` scores strictly above `o` (read over the same users or, for the report, as
    /// shares of users of any size).
    public func beats(_ o: FitScore) -> Bool {
        let a = agreeing * max(1, o.users), b = o.agreeing * max(1, users)
        if a != b { return a > b }
        // 2m/s against 2m'/s', cross-multiplied (no shows at all: 1, a perfect overlap).
        let x = (shows == 0 ? 1 : matched * 2) * max(1, o.shows), y = (o.shows == 0 ? 1 : o.matched * 2) * max(1, shows)
        if x != y { return x > y }
        return unsettled * max(1, o.users) < o.unsettled * max(1, users)
    }

    /// Agreement, per ten thousand users (`9950`: 99.50 %).
    public var agreementBasisPoints: Int { users == 0 ? 0 : agreeing * 10_000 / users }
    /// Dice overlap of the shows, per ten thousand.
    public var matchedBasisPoints: Int { shows == 0 ? 10_000 : matched * 20_000 / shows }
}
