/// What a trace read without an error may still get wrong, said as a warning (an error under
/// `--strict`): a mapping or a catalog that reads the rows as something they are not, so that the
/// figures are wrong with exit 0 (issue 65, "No silent mapping").
///
/// - A condition of the catalog compares a state variable with a value that rows set the
///   variable to never, though they set it: a `set screen` mapped onto a column that holds
///   `screen=home` made every screen `'screen=home'`, and `screen == 'home'` never held.
/// - A mapped event name no row has (a typo: `popup_impresion`), said with the unmapped event
///   nearest its spelling.
///
/// Contract: found from counts every worker and shard reads whole (each row is decoded by one
/// worker, whatever the shard), so every shard says the same warnings; in file order (conditions
/// by popup, events as the mapping lists them).
public enum TraceWarning: Sendable, Equatable {
    /// Rows set `variable`, never to `wanted`, which the conditions of `popups` compare it with;
    /// `seen`: the values rows gave it (as a condition writes them), the most rows first.
    case valueNeverSet(variable: String, wanted: StateValue, popups: [String], seen: [Seen])
    /// Mapped event `event` (read as `meaning`) matches no row; `closest`: the unmapped event
    /// seen nearest its spelling, if one is near.
    case eventMatchesNoRow(event: String, meaning: String, closest: Seen?)

    /// A value or an event name, and the rows that had it.
    public struct Seen: Sendable, Equatable {
        public var text: String
        public var rows: Int

        public init(text: String, rows: Int) {
            self.text = text
            self.rows = rows
        }
    }

    /// The warnings of rows read against `catalog` through `mapping`: `settings`, the rows per
    /// (variable, value) the trace's `set` rows gave; `mappedRows`, the rows per mapped event (by
    /// its index); `unmapped`, the rows per event name skipped.
    public static func check(catalog: Scenario, mapping: TraceMapping, settings: [(variable: Int, value: StateValue, rows: Int)],
                             mappedRows: [Int], unmapped: [String: Int]) -> [TraceWarning] {
        var out: [TraceWarning] = []
        var wanted: [(variable: Int, value: StateValue, popups: [String])] = []
        for popup in catalog.popups {
            guard let when = popup.when else { continue }
            for (v, value) in comparisons(when) {
                if let i = wanted.firstIndex(where: { $0.variable == v && $0.value == value }) {
                    if !wanted[i].popups.contains(popup.name) { wanted[i].popups.append(popup.name) }
                } else {
                    wanted.append((v, value, [popup.name]))
                }
            }
        }
        for w in wanted {
            let given = settings.filter { $0.variable == w.variable }
            guard !given.isEmpty, !given.contains(where: { $0.value == w.value }) else { continue }
            var counts: [(StateValue, Int)] = []
            for g in given {
                if let i = counts.firstIndex(where: { $0.0 == g.value }) { counts[i].1 &+= g.rows } else { counts.append((g.value, g.rows)) }
            }
            counts.sort { ($0.1, $1.0.description) > ($1.1, $0.0.description) }
            out.append(.valueNeverSet(variable: catalog.state.names[w.variable], wanted: w.value, popups: w.popups,
                                      seen: counts.map { Seen(text: $0.0.description, rows: $0.1) }))
        }
        for (i, e) in mapping.events.enumerated() where (i < mappedRows.count ? mappedRows[i] : 0) == 0 {
            let names = unmapped.keys.sorted()
            let closest = Suggestion.closest(e.name, among: names).map { Seen(text: $0, rows: unmapped[$0] ?? 0) }
            out.append(.eventMatchesNoRow(event: e.name, meaning: e.meaning.text, closest: closest))
        }
        return out
    }

    /// The (variable, value) pairs `==` and `!=` compare in a condition, in the order written.
    static func comparisons(_ c: Condition) -> [(Int, StateValue)] {
        switch c {
        case .compare(let op, let a, let b) where op == .equal || op == .notEqual:
            if case .variable(let v) = a, case .literal(let value) = b { return [(v.index, value)] }
            if case .literal(let value) = a, case .variable(let v) = b { return [(v.index, value)] }
            return comparisons(a) + comparisons(b)
        case .compare(_, let a, let b): return comparisons(a) + comparisons(b)
        case .not(let e): return comparisons(e)
        case .and(let list), .or(let list): return list.flatMap(comparisons)
        case .literal, .variable: return []
        }
    }
}

extension TraceMapping.Meaning {
    /// As a mapping writes it: `shown`, `set screen`, `replace home`.
    public var text: String {
        switch self {
        case .verb(let v): v.word
        case .setVariable(let name): "set " + name
        case .verbWith(let v, let value): v.word + " " + value
        }
    }
}
