/// The verdict of one `expect` entry on one run.
public struct PropertyVerdict: Sendable, Equatable {
    public var expectation: Expectation
    /// Nil when the property holds; else the instant that breaks it and what happened then.
    public var failure: Failure?

    public struct Failure: Sendable, Equatable {
        public var at: Int
        public var evidence: String
    }

    public var holds: Bool { failure == nil }
}
