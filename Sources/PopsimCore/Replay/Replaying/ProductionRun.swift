/// What production did for one user, written as a run's timeline from the user's rows, so that
/// production's column is counted and its properties judged by the very code that counts and
/// judges a strategy's run (`ReplayTally.add`, `PropertyJudge`): production as the baseline.
///
/// The lines (docs/replay.md, "The production column"):
/// - an `enqueue` row is an `enqueue` line; a `shown` row a `show` line, after a
///   `warning … overlap` when another popup is on screen then;
/// - a show ends at the `dismissed` row that answers it (`hide … user`, its button); else at the
///   first of: its popup's `duration` in the catalog run out, its popup shown again, a `clear`,
///   `clearScreen` or `remove` of it (`hide … duration`), else at the user's last row; `gone` at
///   once;
/// - a `dropped` row is a `drop` line of the reason its value names (`warning … lost` for
///   `lost`; `discard` for none); a `clear`, `clearQueue`, `clearUpTo` or `remove` row a
///   `drop … cleared` or `drop … removed` line for each request of its popups still open.
///
/// Contract: a show settles the oldest open request of its popup and a drop the newest, as the
/// ledger reads a run's lines; nothing is pending at the end (production's rows cannot tell a
/// request waiting from one let go without a row).
struct ProductionRun {
    /// One show: its popup, when it began, the position of its `show` line among the rows' lines,
    /// and when and how it ended (`end` nil: not yet).
    private struct Show {
        var popup: Int32
        var start: Int
        var line: Int
        var end: Int?
        var byUser = false
        /// The `dismissed` row's value (its button's id in the user's values; -1: none).
        var button: Int32 = -1
    }

    private var shows: [Show] = []
    /// Per popup, its last show's index in `shows` (-1: none), and its open requests.
    private var last: [Int] = []
    private var open: [Int] = []
    /// The rows' lines in row order (times never go back), and the shows' ends, each a `hide`
    /// and a `gone` at its time: merged into the timeline by time, an end before the rows' lines
    /// of its instant, after its own `show` when it ends as it begins.
    private var rowLines: [Timeline.Entry] = []
    private var ends: [(t: Int, after: Int, show: Int)] = []
    /// The timeline's lines as they are written (`write`), swapped into the result's.
    private var out: [Timeline.Entry] = []

    /// The user's production run into `result` (its timeline's storage kept from user to user;
    /// its scenario, the catalog's, is left as it is: only its `expect` and names are read, and
    /// holding the user's would make the next user's script a copy); `popups`: the catalog's.
    mutating func make(_ user: Replayer.User, popups: [Popup], into result: inout RunResult) {
        shows.removeAll(keepingCapacity: true)
        rowLines.removeAll(keepingCapacity: true)
        last.refill(-1, count: popups.count)
        open.refill(0, count: popups.count)
        for r in user.rows {
            guard let verb = r.entry.verb else { continue }
            let p = r.entry.popupID.map { Int($0.index) } ?? -1
            let known = p >= 0 && p < popups.count
            switch verb {
            case .action(.enqueue) where known:
                line(r.time, .enqueue, p)
                open[p] += 1
            case .shown where known:
                endLast(p, at: r.time)
                last[p] = shows.count
                shows.append(Show(popup: Int32(p), start: r.time, line: rowLines.count))
                line(r.time, .show, p)
                if open[p] > 0 { open[p] -= 1 }
            case .dismissed where known:
                guard last[p] >= 0, shows[last[p]].end == nil else { continue }
                shows[last[p]].end = r.time
                shows[last[p]].byUser = true
                shows[last[p]].button = r.entry.value
            case .dropped where known:
                let reason = user.values.text(r.entry.value).flatMap(Reason.init(rawValue:))
                if reason == .lost { line(r.time, .warning, p, .lost) } else { line(r.time, .drop, p, reason ?? .discard) }
                if open[p] > 0 { open[p] -= 1 }
            case .action(.clear), .action(.clearQueue):
                for q in 0..<popups.count { dropAll(q, r.time, .cleared) }
                if verb == .action(.clear) { endAll(at: r.time) }
            case .action(.clearScreen):
                endAll(at: r.time)
            case .action(.clearUpTo):
                let most = Int(r.entry.popup)
                for q in 0..<popups.count where (popups[q].priority ?? Popup.normalPriority) <= most { dropAll(q, r.time, .cleared) }
            case .action(.remove) where known:
                dropAll(p, r.time, .removed)
                endLast(p, at: r.time)
            default: continue
            }
        }
        settleEnds(popups, lastRow: user.rows.last?.time ?? 0)
        write(into: &result, from: user.rows.first?.time ?? 0, values: user.values)
        result.end = user.rows.last.map { $0.time &- (user.rows.first?.time ?? 0) } ?? 0
    }

    private mutating func line(_ t: Int, _ event: TimelineEvent, _ p: Int, _ reason: Reason? = nil) {
        rowLines.append(Timeline.Entry(t: t, event: event, subject: Int32(p), reason: reason))
    }

    private mutating func dropAll(_ p: Int, _ t: Int, _ reason: Reason) {
        for _ in 0..<open[p] { line(t, .drop, p, reason) }
        open[p] = 0
    }

    private mutating func endLast(_ p: Int, at t: Int) {
        if last[p] >= 0, shows[last[p]].end == nil { shows[last[p]].end = t }
    }

    private mutating func endAll(at t: Int) {
        for i in shows.indices where shows[i].end == nil { shows[i].end = t }
    }

    /// Every show's end: a show no row ended by the user ends at its popup's `duration` if that
    /// comes first, else at the user's last row; in time order.
    private mutating func settleEnds(_ popups: [Popup], lastRow: Int) {
        ends.removeAll(keepingCapacity: true)
        for i in shows.indices {
            if !shows[i].byUser {
                if case .ms(let d)? = popups[Int(shows[i].popup)].duration {
                    shows[i].end = min(shows[i].end ?? .max, shows[i].start &+ d)
                } else if shows[i].end == nil {
                    shows[i].end = max(lastRow, shows[i].start)
                }
            }
            let end = shows[i].end ?? lastRow
            // An end at its own show's instant comes after that show's line.
            ends.append((end, end == shows[i].start ? shows[i].line + 1 : 0, i))
        }
        if ends.count > 1 { ends.sort { ($0.t, $0.after, $0.show) < ($1.t, $1.after, $1.show) } }
    }

    /// The rows' lines and the ends merged into the timeline by time, times from the user's first
    /// row, each show after a `warning … overlap` when another popup is on screen. Written into
    /// this value's own buffer, then swapped into the timeline (an append through the result's
    /// nested storage checked its uniqueness each time).
    private mutating func write(into result: inout RunResult, from t0: Int, values: TraceValues) {
        out.removeAll(keepingCapacity: true)
        result.timeline.buttons.removeAll(keepingCapacity: true)
        result.pending.removeAll(keepingCapacity: true)
        var visible = 0, e = 0
        for k in rowLines.indices {
            var l = rowLines[k]
            while e < ends.count, ends[e].t < l.t || (ends[e].t == l.t && ends[e].after <= k) {
                writeEnd(ends[e].show, from: t0, values: values, buttons: &result.timeline)
                visible -= 1
                e += 1
            }
            l.t = l.t &- t0
            if l.event == .show {
                if visible > 0 { out.append(Timeline.Entry(t: l.t, event: .warning, subject: l.subject, reason: .overlap)) }
                visible += 1
            }
            out.append(l)
        }
        while e < ends.count {
            writeEnd(ends[e].show, from: t0, values: values, buttons: &result.timeline)
            e += 1
        }
        swap(&out, &result.timeline.entries)
    }

    private mutating func writeEnd(_ i: Int, from t0: Int, values: TraceValues, buttons timeline: inout Timeline) {
        let t = (shows[i].end ?? shows[i].start) &- t0, popup = shows[i].popup, byUser = shows[i].byUser
        var button: UInt16 = 0
        if byUser, shows[i].button >= 0, let name = values.text(shows[i].button), name != "close" { button = timeline.buttonIndex(name) }
        out.append(Timeline.Entry(t: t, event: .hide, subject: popup, reason: byUser ? .user : .duration, button: button))
        out.append(Timeline.Entry(t: t, event: .gone, subject: popup))
    }
}
