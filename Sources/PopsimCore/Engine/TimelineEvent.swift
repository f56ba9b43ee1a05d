/// The kinds of timeline lines, as design.md §6 names them.
public enum TimelineEvent: String, Sendable, CaseIterable {
    case enqueue, show, shown, hide, gone, requeue, drop, suspend, resume, nav, warning

    /// Its position in `allCases`, for table lookups without hashing.
    package var ordinal: Int {
        switch self {
        case .enqueue: return 0
        case .show: return 1
        case .shown: return 2
        case .hide: return 3
        case .gone: return 4
        case .requeue: return 5
        case .drop: return 6
        case .suspend: return 7
        case .resume: return 8
        case .nav: return 9
        case .warning: return 10
        }
    }
}
