/// Production's shows, from a user's rows, one record a show: its popup, its start and end as
/// `ProductionRun` writes them (its `dismissed` row; else the first of its popup's `duration`,
/// its popup shown again, a `clear`, `clearScreen` or `remove` of it; else the user's last row),
/// and the user's answer to it (`ProductionAnswers`). Counted as `ReplayTally.add` counts a run's
/// lines: the most on screen at the end of an instant, and each show that began while another
/// popup was on screen (an overlap). Kept from user to user.
///
/// One record, not a list each for the order, the times and the answers: every list written a
/// row cost its own uniqueness check (~100 instructions a row of a replay).
struct ProductionScreen {
    struct Show {
        var popup: Int32
        var start: Int
        var end: Int?
        var byUser = false
        /// The answer: the time from `start` to the `dismissed` row that answered the show, and
        /// that row's value (an id in the user's values, -1: none).
        var answered = false
        var after = 0
        var button: Int32 = -1
        /// The next show of its popup (-1: none): a popup's shows read without a pass over all.
        var next: Int32 = -1
    }

    private(set) var shows: [Show] = []
    /// Per popup, its first and its last show (-1: none), side by side: one write a show.
    private struct Ends {
        var first = -1
        var last = -1
    }

    private var ends: [Ends] = []
    /// Every show before it has ended: a `clear` ends the shows from it on (a pass over all the
    /// user's shows a `clear` was quadratic in a long session).
    private var ended = 0
    /// The user's first row: a run's times count from it.
    private var t0 = 0

    mutating func reset(popups: Int, from t0: Int) {
        shows.removeAll(keepingCapacity: true)
        ends.refill(Ends(), count: popups)
        ended = 0
        self.t0 = t0
    }

    /// Whether a run's shows (`times`: production's popups in production's order, times from the
    /// user's first row) keep to these (docs/replay.md, "agrees in timing"): each begins within
    /// `tolerance` ms of its `shown` row, and each show production's user dismissed is ended by the
    /// user within `tolerance` ms of its `dismissed` row.
    func keptBy(_ times: ShowTimes, tolerance: Int) -> Bool {
        guard times.shows.count == shows.count else { return false }
        for (k, run) in times.shows.enumerated() {
            if (run.start &- (shows[k].start &- t0)).magnitude > UInt(tolerance) { return false }
            guard shows[k].byUser, let end = shows[k].end else { continue }
            if run.end == ShowTimes.none || (run.end &- (end &- t0)).magnitude > UInt(tolerance) { return false }
        }
        return true
    }

    /// Whether a run showed production's popups in production's order (docs/replay.md,
    /// "agrees").
    func shown(as times: ShowTimes) -> Bool {
        times.shows.count == shows.count && zip(times.shows, shows).allSatisfy { $0.popup.index == $1.popup }
    }

    /// Production's popups, in the order shown.
    var popups: [PopupID] { shows.map { PopupID(Int($0.popup)) } }

    /// One row of the user's, in order (`popup` -1: none; `value`: its value's id): what it does
    /// to the shows on screen and their answers.
    @inline(__always)
    mutating func take(_ verb: TraceVerb, popup p: Int, popups: Int, at t: Int, value: Int32) {
        let known = p >= 0 && p < popups
        switch verb {
        case .shown where known: show(p, at: t)
        case .dismissed where known: dismissed(p, at: t, button: value)
        case .action(.clear), .action(.clearScreen): endAll(at: t)
        case .action(.remove) where known: end(p, at: t)
        default: break
        }
    }

    /// Each show's start, from the user's first row.
    var starts: [Int] { shows.map { $0.start &- t0 } }

    @inline(__always)
    mutating func show(_ p: Int, at t: Int) {
        let k = ends[p].last, n = shows.count
        if k >= 0 {
            shows.withUnsafeMutableBufferPointer { shows in
                if shows[k].end == nil { shows[k].end = t }
                shows[k].next = Int32(truncatingIfNeeded: n)
            }
        }
        ends.withUnsafeMutableBufferPointer { ends in
            if k < 0 { ends[p].first = n }
            ends[p].last = n
        }
        shows.append(Show(popup: Int32(p), start: t))
    }

    /// Whether popup `p` was shown yet.
    func hasShown(_ p: Int) -> Bool { ends[p].last >= 0 }

    /// The first show of popup `p` (-1: none; `Show.next` leads to the others).
    func firstShow(of p: Int) -> Int { p < ends.count ? ends[p].first : -1 }

    /// A `dismissed` row of `p`: it answers the popup's last show if nothing answered it yet
    /// (docs/replay.md, "What a user does"), and ends it, by the user, if nothing ended it yet.
    mutating func dismissed(_ p: Int, at t: Int, button: Int32) {
        let k = ends[p].last
        guard k >= 0 else { return }
        shows.withUnsafeMutableBufferPointer { shows in
            if !shows[k].answered {
                shows[k].answered = true
                shows[k].after = t &- shows[k].start
                shows[k].button = button
            }
            if shows[k].end == nil {
                shows[k].end = t
                shows[k].byUser = true
            }
        }
    }

    mutating func end(_ p: Int, at t: Int) {
        let k = ends[p].last
        if k >= 0, shows[k].end == nil { shows[k].end = t }
    }

    mutating func endAll(at t: Int) {
        guard ended < shows.count else { return }
        shows.withUnsafeMutableBufferPointer { shows in
            for k in ended..<shows.count where shows[k].end == nil { shows[k].end = t }
        }
        ended = shows.count
    }

    /// The most on screen at the end of an instant, and the popup of each show that began while
    /// another was on screen; `catalog`'s durations end the shows no row ended by the user.
    ///
    /// Shows are in the order they began, an end before the starts of its instant (a show ending
    /// as it begins is gone before the next line): a show began while another was on screen when
    /// an earlier one ends after it began; the most on screen is reached at some show's start,
    /// counting the shows begun by then that end after it. O(shows²), a handful a user.
    mutating func count(_ catalog: [Popup], lastRow: Int) -> (most: Int, overlapping: [Int]) {
        guard !shows.isEmpty else { return (0, []) }
        shows.withUnsafeMutableBufferPointer { shows in
            for k in shows.indices {
                var end = shows[k].end ?? max(lastRow, shows[k].start)
                if !shows[k].byUser, case .ms(let d)? = catalog[Int(shows[k].popup)].duration {
                    end = min(shows[k].end ?? .max, shows[k].start &+ d)
                }
                shows[k].end = end
            }
        }
        var most = 0, latestEnd = Int.min
        var overlapping: [Int] = []
        for k in shows.indices {
            let start = shows[k].start, end = shows[k].end ?? start
            if latestEnd > start {
                overlapping.append(Int(shows[k].popup))
                // Another is on screen: count them all (rare; most users see one at a time).
                var on = 0
                for j in shows.indices {
                    guard shows[j].start <= start else { break }
                    if (shows[j].end ?? start) > start { on += 1 }
                }
                most = max(most, on)
            } else if end > start {
                most = max(most, 1)
            }
            latestEnd = max(latestEnd, end)
        }
        return (most, overlapping)
    }
}
