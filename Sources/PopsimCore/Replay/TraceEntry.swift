/// One decoded row of a trace: what happened to one user, and when (absolute milliseconds).
public struct TraceEntry: Sendable {
    public var time: Int
    public var kind: Kind
    /// The row's number in the trace (from 1), and where it starts: for messages and for the
    /// order of equal times.
    public var row: Int
    public var location: SourceLocation

    public enum Kind: Sendable {
        /// Something the script makes happen (`enqueue`, `set`, `remove`, …), as in a scenario.
        case action(Action)
        /// Production showed the popup: it appeared on screen (the timeline's `show`).
        case shown(PopupID)
        /// The user dismissed it in production, with `button` (nil: closed).
        case dismissed(PopupID, button: String?)
    }

    public init(time: Int, kind: Kind, row: Int, location: SourceLocation) {
        self.time = time
        self.kind = kind
        self.row = row
        self.location = location
    }
}
