/// A run's shows in order: each one's popup, when it began, and when the user ended it (a
/// `hide … user` line): what agreement sets against production's (`ProductionScreen.shown(as:)`
/// for the order, `keptBy` for the timing). One record a show, kept from user to user in one
/// value's storage (a list each for popups, starts and ends cost two more appends a show).
struct ShowTimes {
    /// No end by the user.
    static let none = Int.min

    struct Show: Equatable {
        /// The file's popup (an instance counts as its popup).
        var popup: PopupID
        var start: Int
        var end: Int
    }

    private(set) var shows: [Show] = []
    /// Per subject (a run's popup or instance, or a catalog's popup), its last show (-1: none).
    private var last: [Int] = []

    /// None yet, for `subjects` subjects.
    mutating func reset(subjects: Int) {
        shows.empty()
        last.refill(-1, count: subjects)
    }

    /// Subject `s`, of the file's popup `popup`, began a show at `t`.
    @inline(__always)
    mutating func show(_ s: Int, popup: PopupID, at t: Int) {
        last[s] = shows.count
        shows.append(Show(popup: popup, start: t, end: Self.none))
    }

    /// The user ended `s`'s last show at `t`, if nothing ended it by the user yet.
    @inline(__always)
    mutating func userEnded(_ s: Int, at t: Int) {
        let k = last[s]
        if k >= 0, shows[k].end == Self.none { shows[k].end = t }
    }

    /// A run's, from its timeline: each `show` line, and each `hide … user` line of the subject's
    /// last show (an instance is a subject of its own).
    mutating func read(_ result: RunResult) {
        reset(subjects: result.timeline.subjects.count)
        for e in result.timeline.entries where e.subject >= 0 {
            if e.event == .show {
                show(Int(e.subject), popup: PopupID(Int(result.timeline.base(e.subject))), at: e.t)
            } else if e.event == .hide, e.reason == .user {
                userEnded(Int(e.subject), at: e.t)
            }
        }
    }
}
