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
        return rank.map { byRank[$0] }
    }

    /// `0 ms` at the left, the middle time, the end time at the right.
    static func axis(end: Int, width: Int) -> String {
        let left = "0", right = "\(end) ms", middle = "\(end / 2)"
        var line = [Character](repeating: " ", count: width)
        func put(_ text: String, at start: Int) {
            for (i, ch) in text.enumerated() where start + i >= 0 && start + i < width { line[start + i] = ch }
        }
        put(left, at: 0)
        if width > left.count + middle.count + right.count + 4 { put(middle, at: width / 2 - middle.count / 2) }
        put(right, at: width - right.count)
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
