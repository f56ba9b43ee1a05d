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
/// Contract: the ledger reads these lines as `ReplayTally.addProduction` reads the rows (a show
/// settles the oldest open request, a drop the newest); nothing is pending at the end (production's
/// rows cannot tell a request waiting from one let go without a row).
struct ProductionRun {
    /// One show: its popup, the row it began at, and when and how it ended (`end` nil: not yet).
    private struct Show {
        var popup: Int32
        var start: Int
        var row: Int
        var end: Int?
        var byUser = false
        var button: String?
    }

    private var shows: [Show] = []
    /// Per popup, its last show's index in `shows` (-1: none), and its open requests.
    private var last: [Int] = []
    private var open: [Int] = []
    /// Lines with their order at an instant: hides (0) before the rows' lines (2 · (1 + row)), a
    /// show's own hide at its start just after it.
    private var lines: [(key: Int, t: Int, entry: Timeline.Entry)] = []

    /// The user's production run into `result` (its timeline's storage kept from user to user);
    /// `scenario`: the user's scenario, its `expect` what is judged.
    mutating func make(_ user: Replayer.User, scenario: Scenario, into result: inout RunResult) {
        let popups = scenario.popups
        readShows(user, popups: popups)
        lines.removeAll(keepingCapacity: true)
        open.refill(0, count: popups.count)
        result.timeline.buttons.removeAll(keepingCapacity: true)
        for (k, r) in user.rows.enumerated() {
            guard let verb = r.entry.verb else { continue }
            let key = 2 * (1 + k)
            func line(_ event: TimelineEvent, _ p: Int, _ reason: Reason? = nil) {
                lines.append((key, r.time, Timeline.Entry(t: r.time, event: event, subject: Int32(p), reason: reason)))
            }
            func dropAll(_ p: Int, _ reason: Reason) {
                for _ in 0..<open[p] { line(.drop, p, reason) }
                open[p] = 0
            }
            let p = r.entry.popupID.map { Int($0.index) } ?? -1
            switch verb {
            case .action(.enqueue) where p >= 0 && p < popups.count:
                line(.enqueue, p)
                open[p] += 1
            case .shown where p >= 0 && p < popups.count:
                line(.show, p)
                if open[p] > 0 { open[p] -= 1 }
            case .dropped where p >= 0 && p < popups.count:
                let reason = user.values.text(r.entry.value).flatMap(Reason.init(rawValue:))
                if reason == .lost { line(.warning, p, .lost) } else { line(.drop, p, reason ?? .discard) }
                if open[p] > 0 { open[p] -= 1 }
            case .action(.clear), .action(.clearQueue):
                for q in 0..<popups.count { dropAll(q, .cleared) }
            case .action(.clearUpTo):
                let most = Int(r.entry.popup)
                for q in 0..<popups.count where (popups[q].priority ?? Popup.normalPriority) <= most { dropAll(q, .cleared) }
            case .action(.remove) where p >= 0 && p < popups.count:
                dropAll(p, .removed)
            default: continue
            }
        }
        for s in shows {
            guard let end = s.end else { continue }
            let button: UInt16 = s.byUser ? s.button.map { $0 == "close" ? 0 : result.timeline.buttonIndex($0) } ?? 0 : 0
            // Before the rows' lines of its instant; after its own show when it ends as it begins.
            let key = end == s.start ? 2 * (1 + s.row) + 1 : 0
            lines.append((key, end, Timeline.Entry(t: end, event: .hide, subject: s.popup, reason: s.byUser ? .user : .duration, button: button)))
            lines.append((key, end, Timeline.Entry(t: end, event: .gone, subject: s.popup)))
        }
        lines.sort { ($0.t, $0.key) < ($1.t, $1.key) }
        write(into: &result, from: user.rows.first?.time ?? 0)
        result.scenario = scenario
        result.end = user.rows.last.map { $0.time &- (user.rows.first?.time ?? 0) } ?? 0
    }

    /// The sorted lines into the timeline, times from the user's first row, each show after a
    /// `warning … overlap` when another popup is on screen.
    private mutating func write(into result: inout RunResult, from t0: Int) {
        result.timeline.entries.removeAll(keepingCapacity: true)
        var visible = 0
        for var l in lines {
            l.entry.t = l.t &- t0
            switch l.entry.event {
            case .show:
                if visible > 0 { result.timeline.entries.append(Timeline.Entry(t: l.entry.t, event: .warning, subject: l.entry.subject, reason: .overlap)) }
                visible += 1
            case .gone: visible -= 1
            default: break
            }
            result.timeline.entries.append(l.entry)
        }
        result.pending.removeAll(keepingCapacity: true)
    }

    /// Each `shown` row's show and when it ended (see the type's comment), times as the rows'.
    private mutating func readShows(_ user: Replayer.User, popups: [Popup]) {
        shows.removeAll(keepingCapacity: true)
        last.refill(-1, count: popups.count)
        func end(_ i: Int, at t: Int) {
            if shows[i].end == nil { shows[i].end = t }
        }
        for (k, r) in user.rows.enumerated() {
            let p = r.entry.popupID.map { Int($0.index) } ?? -1
            switch r.entry.verb {
            case .shown? where p >= 0 && p < popups.count:
                if last[p] >= 0 { end(last[p], at: r.time) }
                last[p] = shows.count
                shows.append(Show(popup: Int32(p), start: r.time, row: k))
            case .dismissed? where p >= 0 && p < popups.count:
                guard last[p] >= 0, shows[last[p]].end == nil else { continue }
                shows[last[p]].end = r.time
                shows[last[p]].byUser = true
                shows[last[p]].button = user.values.text(r.entry.value)
            case .action(.clear)?, .action(.clearScreen)?:
                for i in shows.indices where shows[i].end == nil { end(i, at: r.time) }
            case .action(.remove)? where p >= 0 && p < popups.count:
                if last[p] >= 0 { end(last[p], at: r.time) }
            default: continue
            }
        }
        let lastRow = user.rows.last?.time ?? 0
        for i in shows.indices where !shows[i].byUser {
            if case .ms(let d)? = popups[Int(shows[i].popup)].duration {
                shows[i].end = min(shows[i].end ?? .max, shows[i].start &+ d)
            } else if shows[i].end == nil {
                shows[i].end = max(lastRow, shows[i].start)
            }
        }
    }
}
