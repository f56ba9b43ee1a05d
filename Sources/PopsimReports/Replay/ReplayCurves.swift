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

    /// One figure: its name, whether it is a share (tenths of a percent), and a value per column.
    struct Figure {
        var name: String
        var percent: Bool
        var values: [Int?]
    }

    /// The panels: each figure of `ReplayFigure.all` that has a curve, in order; with `by`, then
    /// each requested group's (`ReplayReport.groups(by:requested:)`), its name before the figure's.
    static func figures(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> [Figure] {
        var out = figures(r, r.tallies.columns, production: r.tallies.production, figures: ReplayFigure.all, group: nil)
        if let by {
            for g in r.groups(by: by, requested: true) {
                out += figures(r, r.tallies.columnGroups.map { $0[g] }, production: r.tallies.productionGroups[g], figures: ReplayFigure.ofGroups,
                               group: r.groups[g].name)
            }
        }
        return out
    }

    /// The panels of one set of tallies (the whole's, or a group's: its properties are the whole's
    /// panels, so a group draws its counts, shares and waits).
    static func figures(_ r: ReplayReport, _ t: [ReplayTally], production: ReplayTally, figures: [ReplayFigure], group: String?) -> [Figure] {
        func share(_ n: Int, _ d: Int) -> Int? { d > 0 ? ReplayReport.tenths(n, of: d) : nil }
        var out: [Figure] = []
        for f in figures {
            guard let curve = f.curve else { continue }
            let name = (group.map { "\($0): " } ?? "") + curve
            if group != nil, case .failures = f.kind { continue }
            switch f.kind {
            case .count(let get, _, _): out.append(Figure(name: name, percent: false, values: t.map(get)))
            case .shown: out.append(Figure(name: name, percent: true, values: t.map { share($0.shown, $0.requests) }))
            case .drops: out.append(Figure(name: name, percent: false, values: t.map { $0.drops.reduce(0, +) }))
            case .waits:
                for q in ReplayFigure.quantiles {
                    out.append(Figure(name: "\(name) p\(q) (ms)", percent: false, values: t.map { $0.waits.quantile(q) }))
                }
            case .failures:
                // A wait's share is over its popup's requests, dropped ones failing: a rule that
                // drops more cannot look better. Any other property's is over users.
                for (i, p) in r.properties.enumerated() {
                    if ReplayReport.isWait(p) {
                        out.append(Figure(name: "\(p): % of requests late or dropped", percent: true,
                                          values: t.map { share($0.lateRequests[i], $0.judgedRequests[i]) }))
                    } else {
                        out.append(Figure(name: "\(name): \(p), % of users", percent: true, values: t.map { share($0.failures[i], $0.users) }))
                    }
                }
            case .waitDistance:
                if r.hasProduction { out.append(Figure(name: name, percent: false, values: t.map { WaitHistogram.distance($0.waits, production.waits) })) }
            case .agreeing:
                if r.hasProduction {
                    out.append(Figure(name: name, percent: true, values: t.map { share($0.agreeing, $0.users) }))
                    out.append(Figure(name: ReplayFigure.timingLabel + ", % of users", percent: true, values: t.map { share($0.timed, $0.users) }))
                }
            case .unsettled:
                out.append(Figure(name: name, percent: false, values: t.map(\.unsettled)))
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

    /// One figure's panel, at (x0, y0).
    static func panel(_ f: Figure, _ r: ReplayReport, x0: Int, y0: Int) -> String {
        let (_, members, xs) = lines(r)
        let (minY, maxY) = yRange(f.values.compactMap { $0 }, percent: f.percent)
        let minX = xs.min() ?? 0, maxX = max((xs.max() ?? 0), minX + 1)
        let plotW = width - left - right, plotH = height - top - bottom
        // 128-bit scaling: a wait or a swept value may be near 2⁶².
        func px(_ x: Int) -> Int { x0 + left + Scale.map(x - minX, plotW, maxX - minX) }
        func py(_ y: Int) -> Int { y0 + top + plotH - Scale.map(y &- minY, plotH, maxY &- minY) }
        func text(_ v: Int) -> String { f.percent ? "\(v / 10).\(v % 10)%" : String(v) }
        let bottomY = y0 + top + plotH
        var out = "<g class=\"panel\">\n"
        out += "<text x=\"\(x0 + left)\" y=\"\(y0 + 16)\" class=\"title\">\(XMLText.escape(f.name))</text>\n"
        out += "<line x1=\"\(x0 + left)\" y1=\"\(bottomY)\" x2=\"\(x0 + left + plotW)\" y2=\"\(bottomY)\" class=\"axis\"/>\n"
        out += "<line x1=\"\(x0 + left)\" y1=\"\(y0 + top)\" x2=\"\(x0 + left)\" y2=\"\(bottomY)\" class=\"axis\"/>\n"
        out += "<text x=\"\(x0 + left - 6)\" y=\"\(y0 + top + 4)\" class=\"y\">\(text(maxY))</text>\n"
        out += "<text x=\"\(x0 + left - 6)\" y=\"\(bottomY + 4)\" class=\"y\">\(text(minY))</text>\n"
        var seen = Set<Int>()
        let candidates = xs.enumerated().compactMap { (c, x) -> (column: Int, x: Int, text: String)? in
            guard r.sweep.isEmpty || !r.sweepValues[c][0].isEmpty, seen.insert(x).inserted else { return nil }
            return (c, px(x), r.sweep.isEmpty ? r.labels[c] : r.sweepValues[c][0])
        }
        for l in xLabels(candidates) {
            out += "<text x=\"\(l.x)\" y=\"\(bottomY + 16)\" class=\"x\">\(XMLText.escape(l.text))</text>\n"
        }
        if !r.sweep.isEmpty {
            out += "<text x=\"\(x0 + left + plotW)\" y=\"\(bottomY + 32)\" class=\"x end\">\(XMLText.escape(r.sweep[0]))</text>\n"
        }
        for (l, cols) in members.enumerated() {
            let color = colors[l % colors.count]
            if cols.count == 1, !r.sweep.isEmpty, r.sweepValues[cols[0]][0].isEmpty, let v = f.values[cols[0]] {
                // A baseline: its value across the whole range.
                out += "<line x1=\"\(px(minX))\" y1=\"\(py(v))\" x2=\"\(px(maxX))\" y2=\"\(py(v))\" stroke=\"\(color)\" stroke-width=\"2\" "
                    + "stroke-dasharray=\"6 4\"><title>\(XMLText.escape(r.labels[cols[0]])): \(text(v))</title></line>\n"
                continue
            }
            let points = cols.compactMap { c in f.values[c].map { (c, px(xs[c]), py($0)) } }.sorted { $0.1 < $1.1 }
            if points.count > 1 {
                out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\""
                    + points.map { "\($0.1),\($0.2)" }.joined(separator: " ") + "\"/>\n"
            }
            for (c, x, y) in points {
                let v = f.values[c] ?? 0
                out += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"4\" fill=\"\(color)\"><title>\(XMLText.escape(r.labels[c])): \(text(v))</title></circle>\n"
            }
        }
        return out + "</g>\n"
    }

    static func legend(_ r: ReplayReport, y: Int) -> String {
        let names = lines(r).names
        guard names != [""] else { return "" }
        var out = ""
        for (i, name) in names.enumerated() {
            let x = left + (i % 3) * 260, row = y + (i / 3) * 18
            out += "<rect x=\"\(x)\" y=\"\(row - 10)\" width=\"12\" height=\"12\" fill=\"\(colors[i % colors.count])\"/>"
                + "<text x=\"\(x + 18)\" y=\"\(row)\" class=\"legend\">\(XMLText.escape(name))</text>\n"
        }
        return out
    }

    public static func svg(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> String {
        let figures = figures(r, by: by)
        let columns = 2
        let rows = (figures.count + columns - 1) / columns
        let legendRows = (lines(r).names.count + 2) / 3
        let totalW = columns * width, totalH = rows * height + 40 + legendRows * 18
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(totalW)\" height=\"\(totalH)\" viewBox=\"0 0 \(totalW) \(totalH)\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += "<style>.title{font-weight:bold;font-size:12px}.axis{stroke:#888}.y{text-anchor:end}.x{text-anchor:middle}.end{text-anchor:end}</style>\n"
        out += "<text x=\"\(left)\" y=\"20\" class=\"title\">replay: \(XMLText.escape(traceName(r))) with \(XMLText.escape(r.catalog)): \(r.tallies.production.users) users</text>\n"
        out += legend(r, y: 42)
        let y0 = 40 + legendRows * 18
        for (i, f) in figures.enumerated() {
            out += panel(f, r, x0: (i % columns) * width, y0: y0 + (i / columns) * height)
        }
        return out + "</svg>\n"
    }

    /// The trace as a title names it: "standard input" for `-`.
    static func traceName(_ r: ReplayReport) -> String { r.trace == "-" ? "standard input" : r.trace }

    public static func html(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>replay: \(XMLText.escape(traceName(r)))</title>\n"
        // The chart scales down to a phone's width; the table scrolls; a long path breaks.
        out += "<style>body{font-family:sans-serif;margin:16px}h1{overflow-wrap:anywhere}svg{max-width:100%;height:auto}"
            + ".wide{overflow-x:auto}table{border-collapse:collapse;font-size:13px}"
            + "td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}td:first-child,th:first-child{text-align:left}</style>\n"
        out += "</head>\n<body>\n<h1>replay: \(XMLText.escape(traceName(r))) with \(XMLText.escape(r.catalog))</h1>\n"
        out += "<p>Hover a point for its value.</p>\n" + svg(r, by: by)
        // The whole's table, then each requested group's with `by` (as the text report).
        for table in [r.table] + (by.map { r.groups(by: $0, requested: true).map { r.table(group: $0) } } ?? []) {
            out += "<div class=\"wide\"><table>\n<tr>" + table[0].map { "<th>\(XMLText.escape($0))</th>" }.joined() + "</tr>\n"
            for row in table.dropFirst() { out += "<tr>" + row.map { "<td>\(XMLText.escape($0))</td>" }.joined() + "</tr>\n" }
            out += "</table></div>\n"
        }
        return out + "</body>\n</html>\n"
    }
}
