import PopsimCore

/// A replay's result as data: what was read, the columns side by side, and their tallies.
/// Every format renders it; `--merge` reads its JSON back (`ReplayJSON.parse`).
public struct ReplayReport: Sendable, Equatable {
    public var trace: String
    /// The trace's bytes and their FNV-1a 64 digest, and the catalog's SHA-256: what shards of
    /// one replay must share to be merged.
    public var traceBytes: Int
    public var traceDigest: String
    public var catalog: String
    public var catalogDigest: String
    /// `I/N` for one shard's report, nil for a whole replay (merged or not).
    public var shard: String?
    /// Rows read, bad rows skipped (`--max-errors`) and users left out for them. `badRows` are
    /// rows bad alone (every shard finds them); `userErrors`, rows bad among their user's (a
    /// time going back: found by the user's shard, so shards add them up).
    public var rows: Int
    public var badRows: Int
    public var userErrors = 0
    public var skippedUsers: Int
    /// The catalog's `expect`, as written.
    public var properties: [String]
    public var labels: [String]
    public var tallies: ReplayTallies
    /// Whether the trace has `shown` rows: then production is a column and agreement a row.
    public var hasProduction: Bool
    /// What else makes the figures (how the trace is read, limits, options, plug-ins' files), as
    /// a digest: shards merge only when theirs are the same ("" when not computed).
    public var settings = ""
    /// Rows skipped for an event name the mapping does not name, per name: the most first, then
    /// by name (every shard finds the same).
    public var unmapped: [(event: String, rows: Int)] = []
    /// Rows of unmapped events whose names are not listed: more names than `UnmappedEvents`
    /// keeps (then `unmapped` is empty).
    public var unmappedUnlisted = 0
    /// Whether the trace has `trigger` rows (a strategy that shows only when asked needs them).
    public var hasTriggers = true
    /// With `--sweep`: the swept names, and per column its strategy and the values it ran with.
    public var sweep: [String] = []
    public var bases: [String] = []
    public var sweepValues: [[String]] = []
    /// The groups every figure is also broken down by (`tallies.productionGroups`,
    /// `tallies.columnGroups`): the catalog's popups, levels and keys.
    public var groups: [ReplayGroups.Group] = []
    /// With `--by KIND:NAME,…`: the groups text, markdown and the charts show (empty: every
    /// group requested). JSON and CSV always have them all.
    public var onlyGroups: [String] = []

    public init(trace: String, traceBytes: Int, traceDigest: String, catalog: String, catalogDigest: String, shard: String?,
                rows: Int, badRows: Int, skippedUsers: Int, properties: [String], labels: [String], tallies: ReplayTallies,
                hasProduction: Bool) {
        self.trace = trace
        self.traceBytes = traceBytes
        self.traceDigest = traceDigest
        self.catalog = catalog
        self.catalogDigest = catalogDigest
        self.shard = shard
        self.rows = rows
        self.badRows = badRows
        self.skippedUsers = skippedUsers
        self.properties = properties
        self.labels = labels
        self.tallies = tallies
        self.hasProduction = hasProduction
    }

    /// The header's words for the rows skipped as unmapped events: `; 120 rows of unmapped
    /// events skipped: app_open 100, purchase 20`, at most five names.
    public var unmappedWords: String {
        if unmappedUnlisted > 0 {
            return "; \(unmappedUnlisted) rows of unmapped events skipped (more than \(UnmappedEvents.listed) event names, or names over "
                + "\(UnmappedEvents.longestName) bytes: not listed)"
        }
        guard !unmapped.isEmpty else { return "" }
        let total = unmapped.reduce(0) { $0 &+ $1.rows }
        let names = unmapped.prefix(5).map { "\($0.event) \($0.rows)" }.joined(separator: ", ")
        let more = unmapped.count > 5 ? " and \(unmapped.count - 5) more" : ""
        return "; \(total) rows of unmapped events skipped: \(names)\(more)"
    }

    /// Unmapped events in report order.
    public static func unmapped(_ counts: [String: Int]) -> [(event: String, rows: Int)] {
        counts.map { (event: $0.key, rows: $0.value) }.sorted { ($1.rows, $0.event) < ($0.rows, $1.event) }
    }

    public static func == (a: ReplayReport, b: ReplayReport) -> Bool {
        a.trace == b.trace && a.traceBytes == b.traceBytes && a.traceDigest == b.traceDigest && a.catalog == b.catalog
            && a.catalogDigest == b.catalogDigest && a.shard == b.shard && a.rows == b.rows && a.badRows == b.badRows
            && a.userErrors == b.userErrors && a.skippedUsers == b.skippedUsers && a.properties == b.properties && a.labels == b.labels
            && a.tallies == b.tallies && a.hasProduction == b.hasProduction && a.hasTriggers == b.hasTriggers && a.sweep == b.sweep
            && a.bases == b.bases && a.sweepValues == b.sweepValues && a.groups == b.groups && a.settings == b.settings
            && a.unmapped.elementsEqual(b.unmapped, by: { $0.event == $1.event && $0.rows == $1.rows }) && a.unmappedUnlisted == b.unmappedUnlisted
    }

    /// The table every text format draws: a header row, then one row per figure
    /// (`ReplayFigure.all`), a cell per column (production first when there is one); "-" where a
    /// figure does not apply.
    public var table: [[String]] { table(every: false) }

    /// The same; `every`: a row for every figure whatever the data (`rows(…every:)`: the CSV's).
    public func table(every: Bool) -> [[String]] {
        table(production: tallies.production, columns: tallies.columns, figures: ReplayFigure.all, corner: "", every: every)
    }

    /// The same table for group `g` (`groups[g]`): its figures (`ReplayFigure.ofGroups`), its
    /// name in the corner. A property's share is over the users who requested one of its popups.
    public func table(group g: Int, every: Bool = false) -> [[String]] {
        table(production: tallies.productionGroups[g], columns: tallies.columnGroups.map { $0[g] }, figures: ReplayFigure.ofGroups,
              corner: groups[g].name, properties: groups[g].properties, every: every)
    }

    /// The indexes of the groups gathered `by`; `requested`: only those some column has a
    /// request of (what text and markdown show).
    public func groups(by: ReplayGroups.By, requested: Bool = false) -> [Int] {
        groups.indices.filter { g in
            groups[g].by == by && g < tallies.productionGroups.count
                && (!requested || tallies.productionGroups[g].requests > 0 || tallies.columnGroups.contains { $0[g].requests > 0 })
                && (!requested || onlyGroups.isEmpty || onlyGroups.contains(groups[g].name))
        }
    }

    /// The text table of `rows(…)` (its header row first).
    func table(production: ReplayTally, columns tallies: [ReplayTally], figures: [ReplayFigure], corner: String,
               properties shown: [Int]? = nil, every: Bool = false) -> [[String]] {
        let names = (hasProduction ? ["production"] : []) + labels
        return [[corner] + names] + rows(production: production, columns: tallies, figures: figures, properties: shown, every: every)
            .map { [$0.label] + $0.cells.map(\.text) }
    }

    /// What a reader must know to read the table, a line each: a column whose strategy shows a
    /// waiting popup only when asked, on a trace without `trigger` rows; a column that had more
    /// popups on screen at once than a `visible <= N` property allows (a strategy of several
    /// slots fails it by design). Like `run`'s note of what a strategy ignores.
    public var notes: [String] {
        var out: [String] = []
        let limits = properties.compactMap(Self.visibleLimit)
        for (c, tally) in tallies.columns.enumerated() {
            let label = labels[c]
            let name = String((bases.indices.contains(c) ? bases[c] : label).prefix { $0 != ":" })
            if !hasTriggers, StrategyRegistry.entry(named: name)?.showsOnlyWhenAsked == true {
                out.append("\(label) shows a waiting popup only when the app asks again (an enqueue, or a trigger row); "
                           + "this trace has no trigger row, so its waits last until the user's next request")
            }
            if let limit = limits.min(), tally.mostOnScreen > limit {
                out.append("\(label) had up to \(tally.mostOnScreen) popups on screen at once (several by design, or overlapping): "
                           + "`visible <= \(limit)` fails for it wherever it did")
            }
        }
        return out
    }

    /// The words that tell a `wait` property's row over requests from its row over users.
    static let perRequest = "per request"

    /// Whether a property is written `wait X <= N`: judged per request too.
    static func isWait(_ text: String) -> Bool {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).first == "wait"
    }

    /// N of a property written `visible <= N`, if it is one.
    static func visibleLimit(_ text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 3, words[0] == "visible", words[1] == "<=" else { return nil }
        return Int(words[2])
    }

    /// The first users where each property fails, per column: `(column, property, users)`.
    public var namedFailures: [(column: String, property: String, users: [ReplayTally.UserRef])] {
        var out: [(String, String, [ReplayTally.UserRef])] = []
        for (c, tally) in tallies.columns.enumerated() {
            for (i, text) in properties.enumerated() where !tally.failing[i].isEmpty {
                out.append((labels[c], text, tally.failing[i]))
            }
            if hasProduction, !tally.disagreeing.isEmpty { out.append((labels[c], "agrees with production", tally.disagreeing)) }
            if hasProduction, !tally.untimed.isEmpty { out.append((labels[c], ReplayFigure.timingLabel, tally.untimed)) }
            if !tally.unsettledUsers.isEmpty { out.append((labels[c], "the run settles", tally.unsettledUsers)) }
        }
        return out
    }

    /// `n` of `total` as a percentage with one decimal, rounded half up, in integers (128-bit:
    /// counts read back from a report may be huge).
    static func percent(_ n: Int, of total: Int) -> String {
        guard total > 0 else { return "-" }
        let tenths = tenths(n, of: total)
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// `n` of `total` in tenths of a percent, rounded half up, at most 1000.
    static func tenths(_ n: Int, of total: Int) -> Int {
        (Scale.map(n, 2000, total) + 1) / 2
    }
}
