/// The fields a trace row may hold, declared once: every reader fills a slot per case, the
/// decoder reads them by name, `--columns` maps them (docs/replay.md, "The trace").
///
/// Adding a column is one case here (and what the decoder makes of it): readers, rows and the
/// column map are sized by `allCases.count`.
public enum TraceField: String, CaseIterable, Sendable {
    case user, time, action, popup, value

    /// Its slot in a row (its place in `allCases`).
    public var ordinal: Int {
        switch self {
        case .user: 0
        case .time: 1
        case .action: 2
        case .popup: 3
        case .value: 4
        }
    }

    /// Whether a CSV header must name its column (JSON Lines: whether a row without it is bad).
    public var isRequired: Bool {
        switch self {
        case .user, .time, .action: true
        case .popup, .value: false
        }
    }

    public static let count = allCases.count
}
