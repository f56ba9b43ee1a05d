/// When each show of a run (or each `shown` row of production) began, and when the user ended it
/// (a `hide … user` line, a `dismissed` row), in order of the shows: what timing agreement
/// compares (`Replayer.inTime`). Kept from user to user in one value's storage.
struct ShowTimes {
    /// No end by the user.
    static let none = Int.min

    private(set) var starts: [Int] = []
    private(set) var ends: [Int] = []
    /// Per subject (a run's popup or instance, or a catalog's popup), its last show (-1: none).
    private var last: [Int] = []

    /// None yet, for `subjects` subjects.
    mutating func reset(subjects: Int) {
        starts.empty()
        ends.empty()
        last.refill(-1, count: subjects)
    }

    /// Subject `s` began a show at `t`.
    @inline(__always)
    mutating func show(_ s: Int, at t: Int) {
        last[s] = starts.count
        starts.append(t)
        ends.append(Self.none)
    }

    /// The user ended `s`'s last show at `t`, if nothing ended it by the user yet.
    @inline(__always)
    mutating func userEnded(_ s: Int, at t: Int) {
        let k = last[s]
        if k >= 0, ends[k] == Self.none { ends[k] = t }
    }

    /// Production's, from `user`'s `shown` and `dismissed` rows (a catalog of `popups` popups;
    /// times from the user's first row), as `ReplayTally.addProduction` reads them.
    mutating func read(_ user: Replayer.User, popups: Int) {
        reset(subjects: popups)
        let start = user.rows.first?.time ?? 0
        for r in user.rows {
            guard let p = r.entry.popupID, Int(p.index) < popups else { continue }
            switch r.entry.verb {
            case .shown?: show(Int(p.index), at: r.time &- start)
            case .dismissed?: userEnded(Int(p.index), at: r.time &- start)
            default: continue
            }
        }
    }

    /// A run's, from its timeline: each `show` line, and each `hide … user` line of the subject's
    /// last show (an instance is a subject of its own).
    mutating func read(_ result: RunResult) {
        reset(subjects: result.timeline.subjects.count)
        for e in result.timeline.entries where e.subject >= 0 {
            if e.event == .show {
                show(Int(e.subject), at: e.t)
            } else if e.event == .hide, e.reason == .user {
                userEnded(Int(e.subject), at: e.t)
            }
        }
    }

    /// Whether `self` (a run's, its shows production's in order) keeps to `production`'s times:
    /// each show begins within `tolerance` ms of production's, and each show production's user
    /// ended is ended by the user within `tolerance` ms of it.
    func keeps(to production: ShowTimes, tolerance: Int) -> Bool {
        guard starts.count == production.starts.count else { return false }
        for k in starts.indices {
            if (starts[k] &- production.starts[k]).magnitude > UInt(tolerance) { return false }
            let end = production.ends[k]
            guard end != Self.none else { continue }
            if ends[k] == Self.none || (ends[k] &- end).magnitude > UInt(tolerance) { return false }
        }
        return true
    }
}
