import PopsimCore

/// `replay --sweep … --format svg|html`: each figure against the first swept value, one line per
/// strategy (and per value of the other sweeps), every point telling its value on hover — the
/// popup scheduler's miss-ratio curve.
///
/// Contract: the same report gives the same bytes; every number in the markup is an integer;
/// without a sweep, each column is a point on its own line at x = its place.
public enum ReplayCurves {
    static let width = 420, height = 240
    static let left = 56, right = 16, top = 28, bottom = 40

    /// One figure: its name, its unit, a value per column, and production's (nil: production
    /// has none), drawn across the panel as the line to compare with.
    struct Figure {
        enum Unit { case count, percent, ms }
        var name: String
        var unit: Unit
        var values: [Int?]
        var production: Int?

        var percent: Bool { unit == .percent }
        /// Every value, production's too, is 0: the panel would be a flat line at 0.
        var allZero: Bool { values.allSatisfy { $0 == 0 || $0 == nil } && (production ?? 0) == 0 && values.contains { $0 == 0 } }
    }

    /// A section of panels: the whole's (`heading` nil), or a group's under its heading.
    struct Section {
        var heading: String?
        var figures: [Figure]
    }

    /// The sections: the whole's panels (each figure of `ReplayFigure.all` with a curve, in
    /// order); with `by`, then each group shown (`ReplayReport.groups(by:requested:)`), its name
    /// as the heading.
    static func sections(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> [Section] {
        var out = [Section(heading: nil, figures: figures(r, r.tallies.columns, production: r.tallies.production, figures: ReplayFigure.all, group: false))]
        if let by {
            for g in r.groups(by: by, requested: true) {
                out.append(Section(heading: "\(by.rawValue) \(r.groups[g].name)",
                                   figures: figures(r, r.tallies.columnGroups.map { $0[g] }, production: r.tallies.productionGroups[g],
                                                    figures: ReplayFigure.ofGroups, group: true)))
            }
        }
        return out
    }

    /// Every panel of every section, in order (the whole's first).
    static func figures(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> [Figure] { sections(r, by: by).flatMap(\.figures) }

    /// The panels of one set of tallies (the whole's, or a group's: its properties are the whole's
    /// panels, so a group draws its counts, shares and waits).
    static func figures(_ r: ReplayReport, _ t: [ReplayTally], production p: ReplayTally, figures: [ReplayFigure], group: Bool) -> [Figure] {
        func share(_ n: Int, _ d: Int) -> Int? { d > 0 ? ReplayReport.tenths(n, of: d) : nil }
        let has = r.hasProduction
        var out: [Figure] = []
        for f in figures {
            guard let name = f.curve else { continue }
            if group, case .failures = f.kind { continue }
            let theirs = has && !f.simulationOnly
            switch f.kind {
            case .count(let get, _, _): out.append(Figure(name: name, unit: .count, values: t.map(get), production: theirs ? get(p) : nil))
            case .shown:
                out.append(Figure(name: name, unit: .percent, values: t.map { share($0.shown, $0.requests) }, production: theirs ? share(p.shown, p.requests) : nil))
            case .drops: out.append(Figure(name: name, unit: .count, values: t.map { $0.drops.reduce(0, +) }, production: nil))
            case .waits:
                for q in ReplayFigure.quantiles {
                    out.append(Figure(name: "\(name) p\(q)", unit: .ms, values: t.map { $0.waits.quantile(q) }, production: theirs ? p.waits.quantile(q) : nil))
                }
            case .waitDistance:
                if has { out.append(Figure(name: name.hasSuffix(" (ms)") ? String(name.dropLast(5)) : name, unit: .ms,
                                           values: t.map { WaitHistogram.distance($0.waits, p.waits) }, production: nil)) }
            case .failures:
                // A wait's share is over its popup's requests, dropped ones failing: a rule that
                // drops more cannot look better. Any other property's is over users.
                for (i, prop) in r.properties.enumerated() {
                    if ReplayReport.isWait(prop) {
                        out.append(Figure(name: "\(prop): % of requests late or dropped", unit: .percent,
                                          values: t.map { share($0.lateRequests[i], $0.judgedRequests[i]) },
                                          production: theirs ? share(p.lateRequests[i], p.judgedRequests[i]) : nil))
                    } else {
                        out.append(Figure(name: "\(name): \(prop), % of users", unit: .percent, values: t.map { share($0.failures[i], $0.users) },
                                          production: theirs ? share(p.failures[i], p.users) : nil))
                    }
                }
            case .agreeing:
                if has {
                    out.append(Figure(name: name, unit: .percent, values: t.map { share($0.agreeing, $0.users) }, production: nil))
                    out.append(Figure(name: ReplayFigure.timingLabel + ", % of users", unit: .percent, values: t.map { share($0.timed, $0.users) },
                                      production: nil))
                }
            case .unsettled:
                out.append(Figure(name: name, unit: .count, values: t.map(\.unsettled), production: nil))
            }
        }
        return out
    }

    /// Lines: columns grouped by strategy and the values of every sweep but the first; each
    /// column's x is its first swept value (its place among them when they are not all integers).
    static func lines(_ r: ReplayReport) -> (names: [String], members: [[Int]], xs: [Int]) {
        let n = r.labels.count
        guard !r.sweep.isEmpty else { return ([""], [Array(0..<n)], Array(0..<n)) }
        var names: [String] = [], members: [[Int]] = []
        for c in 0..<n {
            let others = zip(r.sweep.dropFirst(), r.sweepValues[c].dropFirst()).map { "\($0)=\($1)" }
            let name = ([r.bases[c]] + others).joined(separator: " ")
            if let i = names.firstIndex(of: name) { members[i].append(c) } else {
                names.append(name)
                members.append([c])
            }
        }
        var labels: [String] = []
        for c in 0..<n where !labels.contains(r.sweepValues[c][0]) && !r.sweepValues[c][0].isEmpty { labels.append(r.sweepValues[c][0]) }
        // Numbers within ±2⁶⁰ stand at their value (differences cannot overflow); others in order.
        let numeric = labels.allSatisfy { Int($0).map { $0.magnitude < 1 << 60 } ?? false }
        // A baseline (a strategy without the swept options) stands at the first x; it is drawn across.
        let first = numeric ? labels.compactMap { Int($0) }.min() ?? 0 : 0
        let xs = (0..<n).map { c in numeric ? Int(r.sweepValues[c][0]) ?? first : labels.firstIndex(of: r.sweepValues[c][0]) ?? 0 }
        return (names, members, xs)
    }

    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    /// The y range a panel draws: the data's, widened by a tenth of it on each side (not below
    /// 0, a share not above 100 %, never empty), so that a change of a point or two is seen;
    /// printed at both ends.
    static func yRange(_ values: [Int], percent: Bool = false) -> (low: Int, high: Int) {
        guard let lo = values.min(), let hi = values.max() else { return (0, 1) }
        let pad = max(1, (hi / 2 - lo / 2) / 5)
        let low = lo >= 0 ? max(0, lo - pad) : lo &- pad
        var high = hi.addingReportingOverflow(pad).overflow ? hi : hi + pad
        if percent, hi <= 1000 { high = min(high, 1000) }
        return (low, max(high, low + 1))
    }

    /// The x labels to draw, by column: each only where it does not run into the one drawn
    /// before it (about 7 px a character), the last kept over its neighbour.
    static func xLabels(_ candidates: [(column: Int, x: Int, text: String)]) -> [(column: Int, x: Int, text: String)] {
        func halfWidth(_ t: String) -> Int { t.count * 7 / 2 + 4 }
        func collide(_ a: (column: Int, x: Int, text: String), _ b: (column: Int, x: Int, text: String)) -> Bool {
            b.x - halfWidth(b.text) < a.x + halfWidth(a.text)
        }
        let sorted = candidates.sorted { $0.x < $1.x }
        var kept: [(column: Int, x: Int, text: String)] = []
        for c in sorted.dropLast() where kept.last.map({ !collide($0, c) }) ?? true { kept.append(c) }
        // The axis's last label is always drawn: those before it that it would run into give way
        // (the first stays).
        if let last = sorted.last {
            while kept.count > 1, let before = kept.last, collide(before, last) { kept.removeLast() }
            if kept.last.map({ !collide($0, last) }) ?? true { kept.append(last) }
        }
        return kept
    }
}
