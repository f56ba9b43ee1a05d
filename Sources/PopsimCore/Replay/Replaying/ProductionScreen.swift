/// Production's shows on screen, from a user's rows: each show's start and end as
/// `ProductionRun` writes them (its `dismissed` row; else the first of its popup's `duration`,
/// its popup shown again, a `clear`, `clearScreen` or `remove` of it; else the user's last row),
/// counted as `ReplayTally.add` counts a run's lines: the most on screen at the end of an instant,
/// and each show that began while another popup was on screen (an overlap). Kept from user to user.
struct ProductionScreen {
    private struct Show {
        var popup: Int32
        var start: Int
        var end: Int?
        var byUser = false
    }

    private var shows: [Show] = []
    private var last: [Int] = []
    /// The user's first row: a run's times count from it.
    private var t0 = 0

    mutating func reset(popups: Int, from t0: Int) {
        shows.removeAll(keepingCapacity: true)
        last.refill(-1, count: popups)
        self.t0 = t0
    }

    /// Whether a run's shows (`times`: production's popups in production's order, times from the
    /// user's first row) keep to these (docs/replay.md, "agrees in timing"): each begins within
    /// `tolerance` ms of its `shown` row, and each show production's user dismissed is ended by the
    /// user within `tolerance` ms of its `dismissed` row.
    func keptBy(_ times: ShowTimes, tolerance: Int) -> Bool {
        guard times.starts.count == shows.count else { return false }
        for k in shows.indices {
            if (times.starts[k] &- (shows[k].start &- t0)).magnitude > UInt(tolerance) { return false }
            guard shows[k].byUser, let end = shows[k].end else { continue }
            if times.ends[k] == ShowTimes.none || (times.ends[k] &- (end &- t0)).magnitude > UInt(tolerance) { return false }
        }
        return true
    }

    /// The user's rows read whole (what `fit` holds a user's production by): `reset`, then `take`
    /// of every row.
    mutating func read(_ user: Replayer.User, popups: Int) {
        reset(popups: popups, from: user.rows.first?.time ?? 0)
        for r in user.rows {
            if let verb = r.entry.verb { take(verb, popup: r.entry.popupID.map { Int($0.index) } ?? -1, popups: popups, at: r.time) }
        }
    }

    /// One row of the user's, in order: what it does to the shows on screen (`popup` -1: none).
    @inline(__always)
    mutating func take(_ verb: TraceVerb, popup p: Int, popups: Int, at t: Int) {
        let known = p >= 0 && p < popups
        switch verb {
        case .shown where known: show(p, at: t)
        case .dismissed where known: userEnded(p, at: t)
        case .action(.clear), .action(.clearScreen): endAll(at: t)
        case .action(.remove) where known: end(p, at: t)
        default: break
        }
    }

    /// Each show's start, from the user's first row.
    var starts: [Int] { shows.map { $0.start &- t0 } }

    @inline(__always)
    mutating func show(_ p: Int, at t: Int) {
        end(p, at: t)
        last[p] = shows.count
        shows.append(Show(popup: Int32(p), start: t))
    }

    mutating func userEnded(_ p: Int, at t: Int) {
        let k = last[p]
        guard k >= 0, shows[k].end == nil else { return }
        shows[k].end = t
        shows[k].byUser = true
    }

    mutating func end(_ p: Int, at t: Int) {
        let k = last[p]
        if k >= 0, shows[k].end == nil { shows[k].end = t }
    }

    mutating func endAll(at t: Int) {
        for k in shows.indices where shows[k].end == nil { shows[k].end = t }
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
        for k in shows.indices {
            var end = shows[k].end ?? max(lastRow, shows[k].start)
            if !shows[k].byUser, case .ms(let d)? = catalog[Int(shows[k].popup)].duration {
                end = min(shows[k].end ?? .max, shows[k].start &+ d)
            }
            shows[k].end = end
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
