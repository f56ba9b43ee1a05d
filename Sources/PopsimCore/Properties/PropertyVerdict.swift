/// The verdict of one `expect` entry on one run.
public struct PropertyVerdict: Sendable, Equatable {
    public var expectation: Expectation
    /// Nil when the property holds; else the instant that breaks it and what happened then.
    public var failure: Failure?
    /// For a property that holds only because what it speaks of did not happen: `wait X <= N`
    /// when requests of X were dropped (a drop settles a request, not judged as a wait) — said so
    /// that a vacuous pass is visible (docs/scenario-format.md, "Properties").
    public var note: PartialHold?

    public struct Failure: Sendable, Equatable {
        public var at: Int
        public var evidence: Evidence
    }

    public var holds: Bool { failure == nil }
}
