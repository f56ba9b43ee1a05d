import PopsimCore

/// `fit … --sweep NAME=V1,V2,…`: the what-if asked of every model that fits (`FitReport.fitting`),
/// each figure given as the best's value and its range across those models — how much the
/// answer depends on which of several near-equal models is right (docs/fit.md, "How sure").
///
/// Contract: a pure value. `replay` holds the replay of every user under each model with each
/// combination of the swept values (column `m · combinations.count + v`), production first;
/// the rows are read from it.
public struct FitWhatIf: Sendable, Equatable {
    /// The swept names, and every combination of their values (the first name slowest).
    public var sweep: [String]
    public var combinations: [[String]]
    /// The models that fit, the best first.
    public var models: [String]
    public var replay: ReplayReport

    public init(sweep: [String], combinations: [[String]], models: [String], replay: ReplayReport) {
        self.sweep = sweep
        self.combinations = combinations
        self.models = models
        self.replay = replay
    }

    /// A combination as a column's name: `cooldownMs=30000`, names joined by `,`.
    public func name(_ v: Int) -> String { zip(sweep, combinations[v]).map { "\($0)=\($1)" }.joined(separator: ",") }

    /// One figure under each combination: production's cell, and per combination the best's
    /// cell with the lowest and highest value across the models that fit.
    public struct Row: Sendable, Equatable {
        public var label: String
        public var production: ReplayCell
        public var ranges: [Range]
    }

    public struct Range: Sendable, Equatable {
        public var best: ReplayCell
        public var low: Int?
        public var high: Int?
    }

    /// The figures a what-if answers: what a rule changes (not the users and requests, which it
    /// does not, nor the agreement with production, which the fit already gave).
    static let skipped: Set<String> = ["users", "requests", "agreeing", "waitDistance"]

    /// The rows of the whole (`group` nil) or of group `group` of `replay.groups`.
    public func rows(group: Int? = nil) -> [Row] {
        let figures = (group == nil ? ReplayFigure.all : ReplayFigure.ofGroups).filter { !Self.skipped.contains($0.key) }
        let count = combinations.count
        var out: [Row] = []
        for v in 0..<count {
            let columns = models.indices.map { m in
                group.map { replay.tallies.columnGroups[m * count + v][$0] } ?? replay.tallies.columns[m * count + v]
            }
            let production = group.map { replay.tallies.productionGroups[$0] } ?? replay.tallies.production
            let rows = replay.rows(production: production, columns: columns, figures: figures, properties: group.map { replay.groups[$0].properties })
            for (k, row) in rows.enumerated() {
                let cells = replay.hasProduction ? Array(row.cells.dropFirst()) : row.cells
                let values = cells.compactMap(\.value)
                let range = Range(best: cells[0], low: values.min(), high: values.max())
                if v == 0 {
                    out.append(Row(label: row.label, production: replay.hasProduction ? row.cells[0] : .none, ranges: [range]))
                } else if k < out.count {
                    out[k].ranges.append(range)
                }
            }
        }
        return out
    }

    /// The groups of popups a what-if gives a table of: each popup some user requested.
    public var popupGroups: [Int] { replay.groups(by: .popup, requested: true) }

    /// A cell as a person reads it: milliseconds in human units (`human`), the best's value, and
    /// its range where the models differ: `32.8 s (4.8–32.8 s)`, `2 (0–2)`, `15.4% (13.7–27.3%)`.
    static func text(_ r: Range, human: Bool) -> String {
        let best = text(r.best, human: human)
        guard let low = r.low, let high = r.high, low != high else { return best }
        let span: String
        switch r.best.unit {
        case .count: span = "\(low)–\(high)"
        case .ms: span = human ? HumanTime.range(low, high) : "\(low)–\(high)"
        case .tenths: span = "\(decimal(low))–\(decimal(high))%"
        }
        return best + " (" + span + ")"
    }

    static func text(_ c: ReplayCell, human: Bool) -> String {
        guard human, c.unit == .ms, let v = c.value else { return c.text }
        return HumanTime.text(v)
    }

    /// Tenths of a percent as `27.3`.
    static func decimal(_ tenths: Int) -> String { "\(tenths / 10).\(tenths % 10)" }

    /// A row's label for a person: `wait p99`, not `wait p99 (ms)`, where the cells say their unit.
    static func label(_ label: String, human: Bool) -> String {
        human && label.hasSuffix(" (ms)") ? String(label.dropLast(5)) : label
    }
}
