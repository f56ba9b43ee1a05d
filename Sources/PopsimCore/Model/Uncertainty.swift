/// What a scenario leaves open about one script event: when in a window it happens, in which
/// order a batch arrives, whether it happens at all (docs/scenario-format.md, "Uncertain
/// arrivals"). `run` and `check` use the nominal variant: every window at its start, every batch
/// in file order, every maybe-event happening; `explore` tries the others.
public struct Uncertainty: Sendable, Equatable {
    /// The event's index in the file's `events`.
    public var event: Int
    /// `"at": [lo, hi]`: the window, when it is wider than one instant.
    public var window: ClosedRange<Int>?
    /// `"order": "any"` on an enqueue of a list: how many popups the batch holds.
    public var batch: Int?
    /// `"maybe": true`.
    public var maybe: Bool

    public init(event: Int, window: ClosedRange<Int>? = nil, batch: Int? = nil, maybe: Bool = false) {
        self.event = event
        self.window = window
        self.batch = batch
        self.maybe = maybe
    }
}
