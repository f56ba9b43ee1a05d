/// One user's rows of a trace, in time order, and the scenario they become.
///
/// The rule of an observed dismissal (docs/replay.md, "What a user does"): a `dismissed` row
/// answers the user's last `shown` row of the same popup; the time between them, less the
/// popup's show animation, becomes the popup's `respond` in this user's scenario (the first
/// answer of each popup, for every show of it), so a strategy that shows it later gets the
/// answer later. A popup the user never answered keeps the catalog's `respond`, else it stays
/// its `duration`.
public struct ReplayUser: Sendable {
    public var id: String
    /// The trace row of the user's first row: users are named and saved in this order.
    public var firstRow: Int
    public private(set) var entries: [TraceEntry] = []

    public init(id: String, firstRow: Int) {
        self.id = id
        self.firstRow = firstRow
    }

    /// Adds the next row of this user; a row earlier than the one before it is an error.
    public mutating func append(_ entry: TraceEntry, file: String) -> LoadError? {
        if let last = entries.last, entry.time < last.time {
            // Worded without the row before (its time and line): the same words whichever reader,
            // or partition, found it.
            return LoadError(file: file, location: entry.location, path: .root,
                             problem: .expected("a time no earlier than user \(JSONValue.quoted(id))'s rows before it", got: String(entry.time)))
        }
        if entries.isEmpty { entries.reserveCapacity(16) }
        entries.append(entry)
        return nil
    }

    /// Its rows renumbered as read from `rows` rows and `lines` lines further down (a second
    /// reader's rows, counted from where it began).
    public mutating func shift(rows: Int, lines: Int) {
        firstRow += rows
        for i in entries.indices {
            entries[i].row += rows
            entries[i].location.line += lines
        }
    }

    /// Adds the rows of `later` (the same user, read after these); a first row earlier than the
    /// last of these is the error of `append`.
    public mutating func append(contentsOf later: ReplayUser, file: String) -> [LoadError] {
        guard let first = later.entries.first else { return [] }
        // The later rows are in order among themselves: if the first is not earlier than these,
        // none is; else each is checked as one reader would have.
        if let last = entries.last, first.time < last.time {
            return later.entries.compactMap { append($0, file: file) }
        }
        entries.append(contentsOf: later.entries)
        return []
    }

    /// Production's answers: per popup, the first (time from appearing to dismissal, button).
    public func answers(popups: Int) -> [(after: Int, button: String?)?] {
        var answers = [(after: Int, button: String?)?](repeating: nil, count: popups)
        // Times may be negative (before 1970): "not shown yet" is nil, not -1.
        var shownAt = [Int?](repeating: nil, count: popups)
        for e in entries {
            switch e.kind {
            case .shown(let p): shownAt[Int(p.index)] = e.time
            case .dismissed(let p, let button):
                let i = Int(p.index)
                guard let shown = shownAt[i], answers[i] == nil else { continue }
                answers[i] = (e.time - shown, button)
            case .action: continue
            }
        }
        return answers
    }

    /// The catalog with this user's actions as its script, times from the user's first row.
    public func scenario(_ catalog: Scenario, file: String) -> Scenario {
        var s = catalog
        s.file = file
        s.name = id
        let start = entries.first?.time ?? 0
        s.events = entries.compactMap { e in
            guard case .action(let a) = e.kind else { return nil }
            return ScenarioEvent(at: e.time - start, action: a, index: e.row, location: e.location)
        }
        s.until = nil
        return s
    }

    /// The popups production showed, in order (`shown` rows).
    public var productionShows: [PopupID] {
        entries.compactMap { if case .shown(let p) = $0.kind { return p } else { return nil } }
    }

}
