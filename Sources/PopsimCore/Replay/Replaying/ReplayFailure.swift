/// A user's run that stops a replay: a plug-in that failed, or popsim's own bug.
///
/// A runaway (`RunError.settles` false) is not one: that user is counted as one that did not
/// settle and named, and the replay goes on (docs/replay.md, "When a run fails"). Anything else
/// leaves no figure a report could print for that user, so the replay stops with it.
public struct ReplayFailure: Error, Sendable, Equatable {
    /// The user, by the trace row of its first row.
    public var user: ReplayTally.UserRef
    /// The column it ran under, as the report labels it.
    public var column: String
    public var error: RunError

    public init(user: ReplayTally.UserRef, column: String, error: RunError) {
        self.user = user
        self.column = column
        self.error = error
    }

    /// The one to report of several: the first user by trace row, then the first column.
    public static func first(_ failures: [(column: Int, failure: ReplayFailure)]) -> ReplayFailure? {
        failures.min { ($0.failure.user.row, $0.column) < ($1.failure.user.row, $1.column) }?.failure
    }
}
