import PopsimCore

/// `--format svg` / `html`: the chart as a standalone picture: title, one lane per run (strategy),
/// one row per popup, blocks per state, markers for drops and warnings, a time axis and a legend.
///
/// Contract: well-formed standalone SVG 1.1 with every coordinate an integer (so the bytes never
/// depend on floating point); lanes are `<g class="lane" data-strategy="…">`, rows
/// `<g class="row" data-popup="…">`, blocks `<rect class="queued|presenting|shown|hiding">`,
/// markers `<path class="drop">` and `<path class="warning">`, each with a `<title>` tooltip.
public enum SVGChart {
    static let width = 960
    static let labelWidth = 150
    static let rowHeight = 18
    static let laneGap = 30
    static let plotLeft = labelWidth + 10
    static let plotWidth = width - plotLeft - 20

    public static func render(title: String, lanes: [(label: String, result: RunResult)]) -> String {
        let charts = lanes.map { ($0.label, PopupIntervals($0.result)) }
        let end = max(1, charts.map(\.1.end).max() ?? 1)
        var y = 48
        var body = ""
        var evidence: [String] = []
        for ((label, intervals), lane) in zip(charts, lanes) {
            body += "  <g class=\"lane\" data-strategy=\"\(escape(label))\">\n"
            body += "    <text class=\"lane-title\" x=\"10\" y=\"\(y + 12)\">\(escape(label))</text>\n"
            let top = y + 16
            y += 20
            for row in intervals.rows + intervals.slotRows {
                // With several lanes every row names its strategy too (a tall chart scrolls its titles away).
                body += rowSVG(row, y: y, end: end, lane: lanes.count > 1 ? label : nil)
                y += rowHeight + 4
            }
            let verdicts = PropertyJudge.verdicts(lane.result)
            body += brokenProperties(verdicts, top: top, bottom: y, end: end)
            evidence += verdicts.compactMap { v in
                v.failure.map { (lanes.count > 1 ? label + ": " : "") + "fails \(v.expectation.text) at \($0.at) ms: \($0.text)" }
            }
            body += "  </g>\n"
            y += laneGap - 4
        }
        let axisY = y
        let height = axisY + 70 + evidence.count * 18
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        out += "  <title>\(escape(title))</title>\n" + style
        out += "  <rect class=\"background\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\"/>\n"
        out += "  <text class=\"title\" x=\"10\" y=\"26\">\(escape(title))</text>\n"
        out += body + axis(y: axisY, end: end) + legend(y: axisY + 40, broken: !evidence.isEmpty)
        for (i, line) in evidence.enumerated() {
            out += "  <text class=\"evidence\" x=\"\(plotLeft)\" y=\"\(axisY + 72 + i * 18)\">\(escape(shortened(line, 130)))</text>\n"
        }
        return out + "</svg>\n"
    }


    static let style = """
          <style>
            .background { fill: #ffffff; }
            text { font-family: Helvetica, Arial, sans-serif; font-size: 12px; fill: #222222; }
            .title { font-size: 16px; font-weight: bold; }
            .lane-title { font-size: 13px; font-weight: bold; }
            .queued { fill: #d9d9d9; }
            .presenting { fill: #9ecae1; }
            .shown { fill: #3182bd; }
            .hiding { fill: #fdae6b; }
            .drop { stroke: #d62728; stroke-width: 2; fill: none; }
            .warning { fill: #ff7f0e; stroke: #7f3f00; stroke-width: 1; }
            .axis { stroke: #555555; stroke-width: 1; }
            .broken { stroke: #d62728; stroke-width: 2; stroke-dasharray: 4 3; }
            .lane-name { font-size: 10px; fill: #888888; }
            .slot-popup { font-size: 10px; fill: #ffffff; }
            .evidence { fill: #d62728; }
          </style>

        """

    static func x(_ t: Int, end: Int) -> Int { plotLeft + Scale.map(t, plotWidth, end) }

    static func rowSVG(_ row: PopupIntervals.Row, y: Int, end: Int, lane: String? = nil) -> String {
        var out = "    <g class=\"row\" data-popup=\"\(escape(row.popup))\">\n"
        if let lane {
            let room = max(6, 22 - min(lane.count, 10) - 1)
            out += "      <text x=\"10\" y=\"\(y + 13)\">\(escape(shortened(row.popup, room)))"
                + "<tspan class=\"lane-name\" dx=\"5\">\(escape(shortened(lane, 10)))</tspan></text>\n"
        } else {
            out += "      <text x=\"10\" y=\"\(y + 13)\">\(escape(shortened(row.popup, 22)))</text>\n"
        }
        for interval in row.intervals {
            let x0 = x(interval.start, end: end), x1 = x(interval.end, end: end)
            let what = interval.popup.map { "\(row.popup): \($0)" } ?? row.popup
            out += "      <rect class=\"\(interval.kind.rawValue)\" x=\"\(x0)\" y=\"\(y)\" width=\"\(max(2, x1 - x0))\" height=\"\(rowHeight)\">"
                + "<title>\(escape(what)) \(interval.kind.rawValue) \(interval.start)–\(interval.end) ms</title></rect>\n"
        }
        // A slot row names the popup it holds where the stretch has room (about 6 px a letter).
        for stretch in PopupIntervals.stretches(row) {
            let x0 = x(stretch.start, end: end), room = (x(stretch.end, end: end) - x0 - 6) / 6
            guard room >= min(3, stretch.popup.count) else { continue }
            out += "      <text class=\"slot-popup\" x=\"\(x0 + 3)\" y=\"\(y + 13)\">\(escape(shortened(stretch.popup, room)))</text>\n"
        }
        for marker in row.markers {
            let cx = x(marker.t, end: end), cy = y + rowHeight / 2
            let tip = "<title>\(escape(row.popup)) \(escape(marker.label)) at \(marker.t) ms</title>"
            switch marker.kind {
            case .drop:
                out += "      <path class=\"drop\" d=\"M\(cx - 5) \(cy - 5) L\(cx + 5) \(cy + 5) M\(cx - 5) \(cy + 5) L\(cx + 5) \(cy - 5)\">\(tip)</path>\n"
            case .warning:
                out += "      <path class=\"warning\" d=\"M\(cx) \(cy - 8) L\(cx + 7) \(cy + 6) L\(cx - 7) \(cy + 6) Z\">\(tip)</path>\n"
            }
        }
        return out + "    </g>\n"
    }

    /// A dashed red line at each instant that breaks a property of `expect`, its text as tooltip.
    static func brokenProperties(_ verdicts: [PropertyVerdict], top: Int, bottom: Int, end: Int) -> String {
        verdicts.compactMap { v in
            guard let f = v.failure else { return nil }
            let px = x(f.at, end: end)
            return "    <line class=\"broken\" x1=\"\(px)\" y1=\"\(top)\" x2=\"\(px)\" y2=\"\(bottom)\">"
                + "<title>\(escape(v.expectation.text + ": " + f.text))</title></line>\n"
        }.joined()
    }

    /// A line with round ticks (`TimeTicks`), labelled in one unit.
    static func axis(y: Int, end: Int) -> String {
        var out = "  <g class=\"time-axis\">\n"
        out += "    <line class=\"axis\" x1=\"\(plotLeft)\" y1=\"\(y)\" x2=\"\(plotLeft + plotWidth)\" y2=\"\(y)\"/>\n"
        let ticks = TimeTicks.ticks(end: end)
        let labels = TimeTicks.labels(ticks)
        for (i, t) in ticks.enumerated() {
            let tx = x(t, end: end)
            out += "    <line class=\"axis\" x1=\"\(tx)\" y1=\"\(y)\" x2=\"\(tx)\" y2=\"\(y + 5)\"/>\n"
            let anchor = i == 0 ? "start" : tx > plotLeft + plotWidth - 20 ? "end" : "middle"
            out += "    <text x=\"\(tx)\" y=\"\(y + 18)\" text-anchor=\"\(anchor)\">\(labels[i])</text>\n"
        }
        return out + "  </g>\n"
    }

    static func legend(y: Int, broken: Bool = false) -> String {
        var out = "  <g class=\"legend\">\n"
        var lx = plotLeft
        for kind in PopupIntervals.Kind.allCases {
            out += "    <rect class=\"\(kind.rawValue)\" x=\"\(lx)\" y=\"\(y)\" width=\"14\" height=\"14\"/>\n"
            out += "    <text x=\"\(lx + 20)\" y=\"\(y + 12)\">\(kind.rawValue)</text>\n"
            lx += 110
        }
        out += "    <path class=\"drop\" d=\"M\(lx) \(y + 2) L\(lx + 10) \(y + 12) M\(lx) \(y + 12) L\(lx + 10) \(y + 2)\"/>\n"
        out += "    <text x=\"\(lx + 20)\" y=\"\(y + 12)\">drop</text>\n"
        lx += 80
        out += "    <path class=\"warning\" d=\"M\(lx + 7) \(y) L\(lx + 14) \(y + 14) L\(lx) \(y + 14) Z\"/>\n"
        out += "    <text x=\"\(lx + 20)\" y=\"\(y + 12)\">warning</text>\n"
        if broken {
            lx += 90
            out += "    <line class=\"broken\" x1=\"\(lx + 7)\" y1=\"\(y)\" x2=\"\(lx + 7)\" y2=\"\(y + 14)\"/>\n"
            out += "    <text x=\"\(lx + 20)\" y=\"\(y + 12)\">property broken (below)</text>\n"
        }
        return out + "  </g>\n"
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// A name cut to `limit` characters, with an ellipsis when it was longer.
    static func shortened(_ name: String, _ limit: Int) -> String {
        name.count <= limit ? name : String(name.prefix(limit - 1)) + "…"
    }
}
