import PopsimCore

/// Where each popup stood over time in one run: the shapes every chart draws.
///
/// Derived from the timeline alone: a `show` or `hide` is animated when its `shown` / `gone` line
/// follows (0 ms transitions write none, and a strategy may choose a decision's own time). A popup is queued from its enqueue (or requeue, or a temporary
/// hide) until it shows, is dropped or is lost; intervals still open at the end close at `end`.
public struct PopupIntervals: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case queued, presenting, shown, hiding }
    public enum MarkerKind: String, Sendable { case drop, warning }

    public struct Interval: Sendable, Equatable {
        public var start: Int
        public var end: Int
        public var kind: Kind
        /// On a slot row: the popup the slot holds then (charts name it).
        public var popup: String?
        /// The reason of the line that began it (`hide … user`, `show … uncovered`), and the
        /// button of a user's hide: for the trace's `args`.
        public var reason: String?
        public var button: String?
    }

    public struct Marker: Sendable, Equatable {
        public var t: Int
        public var kind: MarkerKind
        /// `drop condition`, `warning overlap`: for tooltips.
        public var label: String
        /// Its reason alone (`condition`), for the trace's `args`.
        public var reason: String?
    }

    public struct Row: Sendable, Equatable {
        public var popup: String
        public var intervals: [Interval] = []
        public var markers: [Marker] = []
    }

    /// A slot row's stretches: each popup's contiguous time in it, with its name.
    public static func stretches(_ row: Row) -> [(popup: String, start: Int, end: Int)] {
        var out: [(popup: String, start: Int, end: Int)] = []
        for interval in row.intervals {
            guard let popup = interval.popup else { continue }
            if let last = out.last, last.popup == popup, last.end == interval.start {
                out[out.count - 1].end = interval.end
            } else {
                out.append((popup, interval.start, interval.end))
            }
        }
        return out
    }

    /// One row per popup, in order of first appearance on the timeline.
    public var rows: [Row]
    /// With option `slots` above 1: one row per slot (`slot 1`, …), each holding the on-screen
    /// stretches of the popups it carried. A stretch takes the lowest slot free at its start;
    /// rows beyond `slots` appear only after an overlap.
    public var slotRows: [Row] = []
    public var end: Int

    public init(_ result: RunResult) {
        let timeline = result.timeline
        var rows: [Row] = []
        var index: [Int32: Int] = [:]
        // Per popup: its open interval's kind, start, reason and button.
        var open: [Int32: (Kind, Int, String?, String?)] = [:]
        var returns = Set<Int32>()
        let end = max(result.end, timeline.entries.last?.t ?? 0)
        let animated = timeline.animatedTransitions()
        for (i, entry) in timeline.entries.enumerated() where entry.subject >= 0 && entry.subject < Int32(result.scenario.popups.count) {
            let s = entry.subject
            let r: Int
            if let known = index[s] { r = known } else {
                r = rows.count
                index[s] = r
                rows.append(Row(popup: timeline.subjects[Int(s)]))
            }
            func close(at t: Int) {
                if let (kind, start, reason, button) = open[s] {
                    rows[r].intervals.append(Interval(start: start, end: t, kind: kind, reason: reason, button: button))
                }
                open[s] = nil
            }
            func afterHidden(at t: Int) {
                if returns.remove(s) != nil { open[s] = (.queued, t, nil, nil) }
            }
            let t = entry.t
            switch entry.event {
            case .enqueue where open[s] == nil:
                open[s] = (.queued, t, nil, nil)
            case .requeue:
                returns.insert(s)
                if open[s] == nil { afterHidden(at: t) }
            case .show:
                close(at: t)
                open[s] = (animated[i] ? .presenting : .shown, t, entry.reason?.rawValue, nil)
            case .shown:
                let reason = open[s]?.2
                close(at: t)
                open[s] = (.shown, t, reason, nil)
            case .hide:
                close(at: t)
                if entry.ledger == .opens { returns.insert(s) }
                if animated[i] { open[s] = (.hiding, t, entry.reason?.rawValue, timeline.button(entry)) } else { afterHidden(at: t) }
            case .gone:
                close(at: t)
                afterHidden(at: t)
            case .drop:
                if open[s]?.0 == .queued { close(at: t) }
                returns.remove(s)
                rows[r].markers.append(Marker(t: t, kind: .drop, label: "drop" + (entry.reason.map { " " + $0.rawValue } ?? ""),
                                              reason: entry.reason?.rawValue))
            case .warning:
                if entry.ledger == .settles {
                    if open[s]?.0 == .queued { close(at: t) }
                    returns.remove(s)
                }
                rows[r].markers.append(Marker(t: t, kind: .warning, label: "warning" + (entry.reason.map { " " + $0.rawValue } ?? ""),
                                              reason: entry.reason?.rawValue))
            default:
                break
            }
        }
        for (s, r) in index.sorted(by: { $0.value < $1.value }) {
            if let (kind, start, reason, button) = open[s] {
                rows[r].intervals.append(Interval(start: start, end: end, kind: kind, reason: reason, button: button))
            }
        }
        self.rows = rows
        self.end = end
        if let slots = result.options[.slots], slots > 1 { slotRows = Self.lanes(rows) }
    }

    /// Greedy lane assignment of every on-screen stretch (consecutive presenting, shown, hiding).
    static func lanes(_ rows: [Row]) -> [Row] {
        var stretches: [[Interval]] = []
        for row in rows {
            var current: [Interval] = []
            for interval in row.intervals {
                if interval.kind == .queued || current.last.map({ $0.end != interval.start }) == true {
                    if !current.isEmpty { stretches.append(current) }
                    current = []
                }
                if interval.kind != .queued {
                    var held = interval
                    held.popup = row.popup
                    current.append(held)
                }
            }
            if !current.isEmpty { stretches.append(current) }
        }
        // By start, then by the row order they came in (a stable sort).
        let ordered = stretches.enumerated().sorted { a, b in
            a.element[0].start != b.element[0].start ? a.element[0].start < b.element[0].start : a.offset < b.offset
        }.map(\.element)
        var lanes: [Row] = []
        var freeAt: [Int] = []
        for stretch in ordered {
            let start = stretch[0].start, end = stretch[stretch.count - 1].end
            if let i = freeAt.firstIndex(where: { $0 <= start }) {
                lanes[i].intervals += stretch
                freeAt[i] = end
            } else {
                lanes.append(Row(popup: "slot \(lanes.count + 1)", intervals: stretch))
                freeAt.append(end)
            }
        }
        return lanes
    }
}

extension Timeline {
    /// About how many blocks and markers a chart of this timeline draws: one per popup line at
    /// most (a guard against charts too big to open, not an exact count).
    public var chartMarks: Int { entries.reduce(0) { $0 + ($1.subject >= 0 && $1.event != .nav ? 1 : 0) } }

}
