import PopsimCore

/// How a terminal chart is drawn: its width and whether it may use more than ASCII.
public struct GanttStyle: Sendable {
    public var columns: Int
    public var ascii: Bool
    /// Colour the phases (a terminal's choice; the glyphs say the same).
    public var style: TextStyle

    public init(columns: Int, ascii: Bool, style: TextStyle = .plain) {
        self.columns = columns
        self.ascii = ascii
        self.style = style
    }
}

/// `--format gantt`: one row per popup, time across, a block per state, markers for drops and
/// warnings; several runs (compare) share one time axis, one lane each.
///
/// Contract: every line fits `columns`; a cell shows the most important thing in its time span
/// (warning, drop, shown, presenting, hiding, queued, in that order); the same input gives the
/// same bytes.
public enum Gantt {
    struct Glyphs {
        var queued, presenting, shown, hiding, drop, warning, empty: Character
        /// On a lane's `expect` row: an instant that breaks a property.
        var broken: Character = "^"

        static let unicode = Glyphs(queued: "·", presenting: "▒", shown: "█", hiding: "░", drop: "×", warning: "!", empty: " ", broken: "▲")
        static let ascii = Glyphs(queued: ".", presenting: "/", shown: "#", hiding: "\\", drop: "x", warning: "!", empty: " ", broken: "^")
    }

    public static func render(_ lanes: [(label: String, result: RunResult)], chart: GanttStyle) -> String {
        let glyphs = chart.ascii ? Glyphs.ascii : Glyphs.unicode
        let charts = lanes.map { ($0.label, PopupIntervals($0.result)) }
        let end = max(1, charts.map(\.1.end).max() ?? 1)
        let labelWidth = min(24, max(5, charts.flatMap { ($0.1.rows + $0.1.slotRows).map(\.popup.count) }.max() ?? 5))
        let width = max(10, chart.columns - labelWidth - 2)
        var out = ""
        var anyBroken = false
        for ((label, intervals), lane) in zip(charts, lanes) {
            let title = TerminalText.safe((lanes.first?.result.scenario.name ?? "") + (chart.ascii ? " - " : " · ") + label)
            out += String(title.prefix(chart.columns)) + "\n"
            for row in intervals.rows + intervals.slotRows {
                out += String(TerminalText.safe(row.popup).prefix(labelWidth)).rightPadded(to: labelWidth) + "  "
                out += paint(String(cells(row, end: end, width: width, glyphs: glyphs)).trailingSpacesRemoved, glyphs, chart.style) + "\n"
            }
            // The instants that break a property of `expect`, on a row of their own.
            let broken = PropertyJudge.verdicts(lane.result).compactMap(\.failure)
            if !broken.isEmpty {
                anyBroken = true
                var marks = [Character](repeating: " ", count: width)
                for f in broken { marks[min(width - 1, Scale.map(f.at, width, end))] = glyphs.broken }
                out += "expect".rightPadded(to: labelWidth) + "  " + String(marks).trailingSpacesRemoved + "\n"
            }
        }
        out += String(repeating: " ", count: labelWidth + 2) + axis(end: end, width: width) + "\n"
        let g = glyphs
        out += "\(g.queued) queued  \(g.presenting) presenting  \(g.shown) shown  \(g.hiding) hiding  \(g.drop) drop  \(g.warning) warning"
            + (anyBroken ? "  \(g.broken) property broken" : "") + "\n"
        return out
    }

    /// Each run of one glyph in its phase's colour.
    static func paint(_ line: String, _ g: Glyphs, _ style: TextStyle) -> String {
        guard style == .color else { return line }
        var out = "", run = "", last: Character?
        func flush() {
            guard let c = last else { return }
            let ink: TextStyle.Ink? = c == g.queued ? .dim : c == g.presenting || c == g.hiding ? .yellow
                : c == g.shown ? .green : c == g.drop || c == g.warning ? .alarm : nil
            out += ink.map { style.paint(run, $0) } ?? run
        }
        for c in line {
            if c != last { flush(); run = ""; last = c }
            run.append(c)
        }
        flush()
        return out
    }

    /// The cells of one row: cell c covers [c·end/width, (c+1)·end/width).
    static func cells(_ row: PopupIntervals.Row, end: Int, width: Int, glyphs: Glyphs) -> [Character] {
        var rank = [Int](repeating: 0, count: width)
        func mark(_ c: Int, _ r: Int) { if c >= 0 && c < width && r > rank[c] { rank[c] = r } }
        func cell(_ t: Int) -> Int { min(width - 1, Scale.map(t, width, end)) }
        for interval in row.intervals {
            let r: Int
            switch interval.kind {
            case .queued: r = 1
            case .hiding: r = 2
            case .presenting: r = 3
            case .shown: r = 4
            }
            let last = interval.end > interval.start ? cell(interval.end - 1) : cell(interval.start)
            for c in cell(interval.start)...max(cell(interval.start), last) { mark(c, r) }
        }
        for marker in row.markers { mark(cell(marker.t), marker.kind == .warning ? 6 : 5) }
        let byRank: [Character] = [glyphs.empty, glyphs.queued, glyphs.hiding, glyphs.presenting, glyphs.shown, glyphs.drop, glyphs.warning]
        var chars = rank.map { byRank[$0] }
        // A slot row names the popup it holds inside each stretch wide enough (one cell kept each side).
        for stretch in PopupIntervals.stretches(row) {
            let first = cell(stretch.start) + 1, last = (stretch.end > stretch.start ? cell(stretch.end - 1) : first) - 1
            let name = Array(TerminalText.safe(stretch.popup))
            guard last - first + 1 >= min(name.count, 3) else { continue }
            for (i, ch) in name.prefix(last - first + 1).enumerated() { chars[first + i] = ch }
        }
        return chars
    }

    /// Round ticks (`TimeTicks`) labelled in one unit, each at its cell (the last kept inside the
    /// width), a label left out where it would touch the one before: `0   2 s   4 s   6 s`.
    static func axis(end: Int, width: Int) -> String {
        let ticks = TimeTicks.ticks(end: end, count: max(1, width / 12))
        var line = [Character](repeating: " ", count: width)
        var free = 0
        for (t, label) in zip(ticks, TimeTicks.labels(ticks)) {
            let text = Array(label)
            let start = min(min(width - 1, Scale.map(t, width, end)), width - text.count)
            guard start >= free, start >= 0 else { continue }
            for (i, ch) in text.enumerated() { line[start + i] = ch }
            free = start + text.count + 2
        }
        return String(line).trailingSpacesRemoved
    }
}

extension String {
    package var trailingSpacesRemoved: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
