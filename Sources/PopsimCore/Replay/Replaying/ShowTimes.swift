/// When each show of a run began, and when the user ended it (a `hide … user` line), in order of
/// the shows: what timing agreement sets against production's (`ProductionScreen.keptBy`). Kept
/// from user to user in one value's storage.
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
}
