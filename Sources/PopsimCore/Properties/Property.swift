/// A rule a scenario says must hold on every run (`expect` in the file), judged on the run's
/// timeline whatever the strategy (docs/scenario-format.md, "Properties").
///
/// Each kind is a case; a new kind is a case here, a form in `PropertyParser`, and a judgement in
/// `PropertyJudge`.
public enum Property: Sendable, Equatable {
    /// `no overlap`, `no lost`, `no stalled`, `no untracked`: no such warning.
    case noWarning(Reason)
    /// `no pending`: nothing is still queued at the end.
    case noPending
    /// `shown X`: X shows at least once.
    case shown(PopupID)
    /// `never shown X`.
    case neverShown(PopupID)
    /// `X before Y`: when Y first shows, X has shown (on an earlier line); holds if Y never shows.
    case before(PopupID, PopupID)
    /// `wait X <= N`: every request of X that is shown waited at most N ms; none is left unshown.
    case waitAtMost(PopupID, Int)
    /// `visible <= N`: at most N popups on screen, from `show` to `gone`, at any instant.
    case visibleAtMost(Int)
    /// `shows <= K per N` or `shows X <= K per N`: at most K shows in any window of N ms.
    case showsAtMost(PopupID?, count: Int, perMs: Int)

    /// The popups it names (none: it is about every popup).
    public var popups: [PopupID] {
        switch self {
        case .noWarning, .noPending, .visibleAtMost: return []
        case .shown(let p), .neverShown(let p), .waitAtMost(let p, _): return [p]
        case .before(let a, let b): return [a, b]
        case .showsAtMost(let p, _, _): return p.map { [$0] } ?? []
        }
    }

    /// The warnings `no …` can name.
    public static let warnings: [Reason] = [.overlap, .lost, .stalled, .untracked]
}

/// One entry of `expect`: the property, the text the user wrote, and where.
public struct Expectation: Sendable, Equatable {
    public var property: Property
    public var text: String
    public var location: SourceLocation
    /// The golden labels or strategy names this property is known to fail under (`expect`'s
    /// `{"property": …, "knownToFail": […]}`): `check` reports such a failure XFAIL and fails
    /// when the property holds there after all (XPASS), so the note cannot go stale. Every other
    /// command judges the property as usual.
    public var knownToFail: [String] = []

    public init(property: Property, text: String, location: SourceLocation, knownToFail: [String] = []) {
        self.property = property
        self.text = text
        self.location = location
        self.knownToFail = knownToFail
    }
}
