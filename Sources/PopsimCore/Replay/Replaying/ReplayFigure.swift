/// A figure of a replay's report, declared once: its key in the JSON report, its label in the
/// table, whether production has it, its name on the sweep curves, and how it is read from a
/// tally and merged. Every format (text, markdown, CSV, JSON, the curves), the JSON read back
/// for `--merge` and `ReplayTally.merge` iterate `ReplayFigure.all`; the counting lives beside
/// the tally (`ReplayTally.add`).
///
/// Adding a figure: its count in `ReplayTally` (a field, and its counting in `add`), and one
/// line in `all`.
public struct ReplayFigure: Sendable {
    public enum Kind: Sendable {
        /// A number per column; `most` merges by maximum, else by sum.
        case count(get: @Sendable (ReplayTally) -> Int, set: @Sendable (inout ReplayTally, Int) -> Void, most: Bool)
        /// Requests shown, and their share of requests.
        case shown
        /// A row per drop reason that occurs in any column.
        case drops
        /// The waits' quantiles and maximum (a row each), from the histogram.
        case waits
        /// How far the waits lie from production's (`WaitHistogram.distance`): read from the two
        /// histograms, never counted or merged of its own (only with production).
        case waitDistance
        /// A row per property of the catalog: the users it fails for, and their share.
        case failures
        /// Users whose shows agree with production, and their share, then those who agree in
        /// timing too (only with production).
        case agreeing
        /// Users whose run did not settle (only when there are some), and the first of them.
        case unsettled
    }

    /// Its key in the JSON report.
    public let key: String
    /// Its label in the table (composite kinds label their own rows).
    public let label: String
    /// Whether production's column has it ("-" there: only a simulation counts it).
    public let simulationOnly: Bool
    /// Its panel on the sweep curves, if it has one.
    public let curve: String?
    public let kind: Kind
    /// Whether it is also counted per group of popups (`ReplayGroups`): what a request, a drop,
    /// a show or a user of a popup adds to; not what only a whole run has (the most on screen,
    /// agreement, settling).
    public var perGroup = true

    /// The figures a group's tally has.
    public static let ofGroups = all.filter(\.perGroup)

    /// The label of the timing agreement's row (beside `agreeing`'s), and its key in the JSON.
    public static let timingLabel = "agrees in timing", timingKey = "timing"

    /// The quantiles of the waits a report shows.
    public static let quantiles = [50, 90, 99]

    /// The users figure: of a group, counted per run, never summed from its popups.
    static let usersKey = "users"

    public static let all: [ReplayFigure] = [
        count(usersKey, "users", { $0.users }, { $0.users = $1 }),
        count("requests", "requests", { $0.requests }, { $0.requests = $1 }),
        ReplayFigure(key: "shown", label: "shown", simulationOnly: false, curve: "shown, % of requests", kind: .shown),
        ReplayFigure(key: "drops", label: "dropped", simulationOnly: true, curve: "dropped", kind: .drops),
        count("lost", "lost", { $0.lost }, { $0.lost = $1 }, simulationOnly: true, curve: "lost"),
        count("overlaps", "overlaps", { $0.overlaps }, { $0.overlaps = $1 }),
        count("pending", "pending at end", { $0.pending }, { $0.pending = $1 }, simulationOnly: true, curve: "pending at end"),
        ReplayFigure(key: "wait", label: "wait", simulationOnly: false, curve: "wait", kind: .waits),
        ReplayFigure(key: "waitDistance", label: "wait distance (ms)", simulationOnly: true, curve: "wait distance from production (ms)",
                     kind: .waitDistance),
        count("mostOnScreen", "most on screen", { $0.mostOnScreen }, { $0.mostOnScreen = $1 }, most: true,
              perGroup: false),
        ReplayFigure(key: "properties", label: "fails", simulationOnly: false, curve: "fails", kind: .failures),
        ReplayFigure(key: "agreeing", label: "agrees with production", simulationOnly: true, curve: "agrees with production, % of users",
                     kind: .agreeing, perGroup: false),
        ReplayFigure(key: "unsettled", label: "did not settle", simulationOnly: true, curve: nil, kind: .unsettled, perGroup: false),
    ]

    static func count(_ key: String, _ label: String, _ get: @escaping @Sendable (ReplayTally) -> Int,
                      _ set: @escaping @Sendable (inout ReplayTally, Int) -> Void, simulationOnly: Bool = false, curve: String? = nil,
                      most: Bool = false, perGroup: Bool = true) -> ReplayFigure {
        ReplayFigure(key: key, label: label, simulationOnly: simulationOnly, curve: curve, kind: .count(get: get, set: set, most: most),
                     perGroup: perGroup)
    }
}
