import PopsimCore

/// The curves drawn: a panel per figure, two abreast, under a legend; each group's panels under
/// its heading; production's value a dotted grey line across a panel; times in human units; a y
/// axis that does not start at 0 marked so; panels where every value is 0 folded into one line of
/// text.
extension ReplayCurves {
    /// Whether the swept values of `name` are milliseconds (drawn as `30 s`): an option or knob
    /// whose name ends in `Ms`, or `duration`.
    static func isMilliseconds(_ name: String) -> Bool { name.hasSuffix("Ms") || name == "duration" }

    /// A value as a panel writes it.
    static func text(_ v: Int, _ unit: Figure.Unit) -> String {
        switch unit {
        case .percent: return "\(v / 10).\(v % 10)%"
        case .ms: return HumanTime.text(v)
        case .count: return String(v)
        }
    }

    /// One figure's panel, at (x0, y0).
    static func panel(_ f: Figure, _ r: ReplayReport, x0: Int, y0: Int) -> String {
        let (_, members, xs) = lines(r)
        let (minY, maxY) = yRange(f.values.compactMap { $0 } + (f.production.map { [$0] } ?? []), percent: f.percent)
        let minX = xs.min() ?? 0, maxX = max((xs.max() ?? 0), minX + 1)
        let plotW = width - left - right, plotH = height - top - bottom
        // 128-bit scaling: a wait or a swept value may be near 2⁶².
        func px(_ x: Int) -> Int { x0 + left + Scale.map(x - minX, plotW, maxX - minX) }
        func py(_ y: Int) -> Int { y0 + top + plotH - Scale.map(y &- minY, plotH, maxY &- minY) }
        let bottomY = y0 + top + plotH
        var out = "<g class=\"panel\">\n"
        out += "<text x=\"\(x0 + left)\" y=\"\(y0 + 16)\" class=\"title\">\(XMLText.escape(f.name))</text>\n"
        out += "<line x1=\"\(x0 + left)\" y1=\"\(bottomY)\" x2=\"\(x0 + left + plotW)\" y2=\"\(bottomY)\" class=\"axis\"/>\n"
        out += "<line x1=\"\(x0 + left)\" y1=\"\(y0 + top)\" x2=\"\(x0 + left)\" y2=\"\(bottomY)\" class=\"axis\"/>\n"
        out += "<text x=\"\(x0 + left - 6)\" y=\"\(y0 + top + 4)\" class=\"y\">\(XMLText.escape(text(maxY, f.unit)))</text>\n"
        out += "<text x=\"\(x0 + left - 6)\" y=\"\(bottomY + 4)\" class=\"y\">\(XMLText.escape(text(minY, f.unit)))</text>\n"
        if minY > 0 {
            // The axis does not start at 0: a break on it, and the words under the panel.
            let bx = x0 + left
            out += "<path d=\"M\(bx - 5),\(bottomY - 8) l10,-4 M\(bx - 5),\(bottomY - 4) l10,-4\" class=\"cut\"/>\n"
            out += "<text x=\"\(x0 + left)\" y=\"\(bottomY + 32)\" class=\"x start\">y axis from \(XMLText.escape(text(minY, f.unit))), not 0</text>\n"
        }
        var seen = Set<Int>()
        let timed = !r.sweep.isEmpty && isMilliseconds(r.sweep[0])
        let candidates = xs.enumerated().compactMap { (c, x) -> (column: Int, x: Int, text: String)? in
            guard r.sweep.isEmpty || !r.sweepValues[c][0].isEmpty, seen.insert(x).inserted else { return nil }
            let value = r.sweep.isEmpty ? r.labels[c] : r.sweepValues[c][0]
            return (c, px(x), timed ? Int(value).map(HumanTime.text) ?? value : value)
        }
        for l in xLabels(candidates) {
            out += "<text x=\"\(l.x)\" y=\"\(bottomY + 16)\" class=\"x\">\(XMLText.escape(l.text))</text>\n"
        }
        if !r.sweep.isEmpty {
            out += "<text x=\"\(x0 + left + plotW)\" y=\"\(bottomY + 32)\" class=\"x end\">\(XMLText.escape(r.sweep[0]))</text>\n"
        }
        if let v = f.production {
            out += "<line x1=\"\(px(minX))\" y1=\"\(py(v))\" x2=\"\(px(maxX))\" y2=\"\(py(v))\" class=\"production\">"
                + "<title>production: \(XMLText.escape(text(v, f.unit)))</title></line>\n"
        }
        for (l, cols) in members.enumerated() {
            let color = colors[l % colors.count]
            if cols.count == 1, !r.sweep.isEmpty, r.sweepValues[cols[0]].allSatisfy(\.isEmpty), let v = f.values[cols[0]] {
                // A baseline: its value across the whole range.
                out += "<line x1=\"\(px(minX))\" y1=\"\(py(v))\" x2=\"\(px(maxX))\" y2=\"\(py(v))\" stroke=\"\(color)\" stroke-width=\"2\" "
                    + "stroke-dasharray=\"6 4\"><title>\(XMLText.escape(r.labels[cols[0]])): \(XMLText.escape(text(v, f.unit)))</title></line>\n"
                continue
            }
            let points = cols.compactMap { c in f.values[c].map { (c, px(xs[c]), py($0)) } }.sorted { $0.1 < $1.1 }
            if points.count > 1 {
                out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\""
                    + points.map { "\($0.1),\($0.2)" }.joined(separator: " ") + "\"/>\n"
            }
            for (c, x, y) in points {
                let v = f.values[c] ?? 0
                out += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"4\" fill=\"\(color)\"><title>\(XMLText.escape(r.labels[c])): \(XMLText.escape(text(v, f.unit)))</title></circle>\n"
            }
        }
        return out + "</g>\n"
    }

    /// The legend's entries: each line's name, then production's (a dotted grey line) when the
    /// trace has production.
    static func legendNames(_ r: ReplayReport) -> [String] {
        let names = lines(r).names
        return (names == [""] ? [] : names) + (r.hasProduction ? ["production"] : [])
    }

    static func legend(_ r: ReplayReport, y: Int) -> String {
        var out = ""
        for (i, name) in legendNames(r).enumerated() {
            let x = left + (i % 3) * 260, row = y + (i / 3) * 18
            if name == "production", r.hasProduction, i == legendNames(r).count - 1 {
                out += "<line x1=\"\(x)\" y1=\"\(row - 4)\" x2=\"\(x + 12)\" y2=\"\(row - 4)\" class=\"production\"/>"
            } else {
                out += "<rect x=\"\(x)\" y=\"\(row - 10)\" width=\"12\" height=\"12\" fill=\"\(colors[i % colors.count])\"/>"
            }
            out += "<text x=\"\(x + 18)\" y=\"\(row)\" class=\"legend\">\(XMLText.escape(name))</text>\n"
        }
        return out
    }

    /// The names of folded panels as lines of text of at most `limit` characters.
    static func folded(_ names: [String], limit: Int = 110) -> [String] {
        var out: [String] = [], line = "0 everywhere (production and every column):"
        for name in names {
            if line.count + name.count + 2 > limit {
                out.append(line)
                line = "  " + name
            } else {
                line += (line.hasSuffix(":") ? " " : ", ") + name
            }
        }
        return out + [line]
    }

    public static func svg(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> String {
        let columns = 2
        let legendRows = (legendNames(r).count + 2) / 3
        var body = "", y = 40 + legendRows * 18
        for section in sections(r, by: by) {
            if let heading = section.heading {
                body += "<text x=\"\(left)\" y=\"\(y + 20)\" class=\"heading\">\(XMLText.escape(heading))</text>\n"
                y += 28
            }
            let drawn = section.figures.filter { !$0.allZero }, zero = section.figures.filter(\.allZero)
            for (i, f) in drawn.enumerated() { body += panel(f, r, x0: (i % columns) * width, y0: y + (i / columns) * height) }
            y += (drawn.count + columns - 1) / columns * height
            if !zero.isEmpty {
                for line in folded(zero.map(\.name)) {
                    body += "<text x=\"\(left)\" y=\"\(y + 14)\" class=\"note\">\(XMLText.escape(line))</text>\n"
                    y += 16
                }
                y += 8
            }
        }
        let totalW = columns * width, totalH = y + 8
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(totalW)\" height=\"\(totalH)\" viewBox=\"0 0 \(totalW) \(totalH)\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += style + "\n"
        out += "<text x=\"\(left)\" y=\"20\" class=\"title\">replay: \(XMLText.escape(traceName(r))) with \(XMLText.escape(r.catalog)): \(r.tallies.production.users) users</text>\n"
        out += legend(r, y: 42)
        return out + body + "</svg>\n"
    }

    /// The panels' styles: one for the whole picture (`svg`), or for each panel's (`html`).
    static let style = "<style>.title{font-weight:bold;font-size:12px}.heading{font-weight:bold;font-size:15px}.axis{stroke:#888}"
        + ".y{text-anchor:end}.x{text-anchor:middle}.end{text-anchor:end}.start{text-anchor:start;fill:#a33}.cut{stroke:#a33;fill:none}"
        + ".note{fill:#555}.production{stroke:#555;stroke-width:2;stroke-dasharray:2 3}</style>"

    /// The trace as a title names it: "standard input" for `-`.
    static func traceName(_ r: ReplayReport) -> String { r.trace == "-" ? "standard input" : r.trace }

    public static func html(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>replay: \(XMLText.escape(traceName(r)))</title>\n"
        // The chart scales down to a phone's width; the table scrolls; a long path breaks.
        out += "<style>body{font-family:sans-serif;margin:16px}h1{overflow-wrap:anywhere}svg{max-width:100%;height:auto}"
            + ".panels{display:flex;flex-wrap:wrap}.legend .entry{margin-right:16px;white-space:nowrap}.note{color:#555;font-size:13px}h2{font-size:17px;margin:20px 0 4px}"
            + ".wide{overflow-x:auto}table{border-collapse:collapse;font-size:13px}"
            + "td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}td:first-child,th:first-child{text-align:left}</style>\n"
        out += "</head>\n<body>\n<h1>replay: \(XMLText.escape(traceName(r))) with \(XMLText.escape(r.catalog))</h1>\n"
        out += "<p>Hover a point for its value; the dotted grey line is production's.</p>\n"
        // Each panel a picture of its own, side by side while they fit: one to a row on a phone.
        // The legend as text, so that it reads at a phone's width too.
        let names = legendNames(r)
        out += "<p class=\"legend\">" + names.enumerated().map { i, name in
            let mark = name == "production" && r.hasProduction && i == names.count - 1
                ? "<span style=\"border-top:2px dotted #555;display:inline-block;width:14px;vertical-align:middle\"></span>"
                : "<span style=\"background:\(colors[i % colors.count]);display:inline-block;width:12px;height:12px\"></span>"
            return "<span class=\"entry\">\(mark) \(XMLText.escape(name))</span>"
        }.joined(separator: " ") + "</p>\n"
        for section in sections(r, by: by) {
            if let heading = section.heading { out += "<h2>\(XMLText.escape(heading))</h2>\n" }
            out += "<div class=\"panels\">\n"
            for f in section.figures where !f.allZero {
                out += "<svg width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" font-family=\"sans-serif\" font-size=\"11\">"
                    + style + panel(f, r, x0: 0, y0: 0) + "</svg>\n"
            }
            out += "</div>\n"
            let zero = section.figures.filter(\.allZero).map(\.name)
            if !zero.isEmpty { out += "<p class=\"note\">" + XMLText.escape(folded(zero, limit: .max).joined()) + "</p>\n" }
        }
        // The whole's table, then each requested group's with `by` (as the text report).
        for table in [r.table] + (by.map { r.groups(by: $0, requested: true).map { r.table(group: $0) } } ?? []) {
            out += "<div class=\"wide\"><table>\n<tr>" + table[0].map { "<th>\(XMLText.escape($0))</th>" }.joined() + "</tr>\n"
            for row in table.dropFirst() { out += "<tr>" + row.map { "<td>\(XMLText.escape($0))</td>" }.joined() + "</tr>\n" }
            out += "</table></div>\n"
        }
        return out + "</body>\n</html>\n"
    }
}
