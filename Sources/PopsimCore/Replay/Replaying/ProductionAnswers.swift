/// Production's answers to one user's shows, show by show: which `dismissed` row answered each
/// `shown` row, read once per user and set on the user's scenario under each column (whose show
/// animations may differ). `replay` and `fit` run a user with them.
///
/// The rule (docs/replay.md, "What a user does"): a `dismissed` row answers the same user's last
/// `shown` row of its popup, if nothing answered that show yet; the answer is the time between
/// the two rows, less the popup's show animation under the column, and the row's button (none:
/// `close`). The k-th show of a popup in a run takes the answer of production's k-th show of it.
/// A show production did not answer is not answered (the popup stays as long as it would); a
/// show past production's last of that popup takes the popup's last answer in production, else
/// the catalog's `respond`; a popup production never showed keeps the catalog's answers.
///
/// Contract: with every show answered as production answered it, a run under production's own
/// rules shows and hides every popup when production did.
public struct ProductionAnswers: Sendable {
    /// One show's answer: time from the `shown` row to the `dismissed` row, and its button.
    public struct Answer: Sendable, Equatable {
        public var after: Int
        public var button: String?
    }

    /// Per popup of the catalog, one entry per production show, in order.
    private(set) var lists: [[Answer?]] = []
    /// Per popup, the time of its last `shown` row so far (nil: not shown yet; times may be
    /// negative, before 1970).
    private var shownAt: [Int?] = []
    /// The popups production showed, in the order of their first show: the only ones whose
    /// answers are not the catalog's.
    public private(set) var shown: [Int] = []
    /// The last user's `shown`: the popups whose answers, set on a scenario kept from user to
    /// user, this user's must set back where its own rows do not (`apply(only:)`).
    public private(set) var previous: [Int] = []

    public init() {}

    /// Whether production answered any show.
    public var answered: Bool { lists.contains { list in list.contains { $0 != nil } } }

    /// Reads `user`'s rows, for a catalog of `popups` popups, in this value's storage.
    public mutating func read(_ user: Replayer.User, popups: Int) {
        begin(popups: popups)
        for r in user.rows {
            switch r.entry.verb {
            case .shown?:
                guard let p = r.entry.popupID, Int(p.index) < popups else { continue }
                shown(Int(p.index), at: r.time)
            case .dismissed?:
                guard let p = r.entry.popupID, Int(p.index) < popups else { continue }
                dismissed(Int(p.index), at: r.time, button: user.values.text(r.entry.value))
            default: continue
            }
        }
    }

    /// No answer yet, for a catalog of `popups` popups (a pass over a user's rows that reads
    /// other things too feeds `shown` and `dismissed` itself: `ReplayTally.addProduction`).
    mutating func begin(popups: Int) {
        swap(&shown, &previous)
        shown.removeAll(keepingCapacity: true)
        if lists.count != popups {
            lists = Array(repeating: [], count: popups)
            shownAt = Array(repeating: nil, count: popups)
            previous.removeAll()
        } else {
            // Only what the last user's rows filled, not every popup of the catalog.
            for i in previous {
                lists[i].removeAll(keepingCapacity: true)
                shownAt[i] = nil
            }
        }
    }

    /// A `shown` row of popup `p`.
    @inline(__always)
    mutating func shown(_ p: Int, at t: Int) {
        if shownAt[p] == nil { shown.append(p) }
        shownAt[p] = t
        lists[p].append(nil)
    }

    /// A `dismissed` row of popup `p`: it answers the popup's last show, if nothing did yet.
    @inline(__always)
    mutating func dismissed(_ p: Int, at t: Int, button: @autoclosure () -> String?) {
        guard let shownAt = shownAt[p] else { return }
        let k = lists[p].count - 1
        guard k >= 0, lists[p][k] == nil else { return }
        lists[p][k] = Answer(after: t &- shownAt, button: button())
    }

    /// Sets each popup's answers in `popups` (the user's scenario's, changed in place): production's show by show, the show animation of `showMs` (per popup,
    /// under the column) taken off; the catalog's (`catalog`) for a popup production never showed.
    ///
    /// `only`: the popups to set (nil: all of them): a caller whose scenario the last user's
    /// answers were set on sets `previous` and `shown`, not every popup of the catalog.
    public func apply(to popups: inout [Popup], showMs: [Int], catalog: [Popup], only: [Int]? = nil) {
        if let only {
            for i in only where i < popups.count { apply(i, to: &popups, showMs: showMs, catalog: catalog) }
        } else {
            for i in popups.indices { apply(i, to: &popups, showMs: showMs, catalog: catalog) }
        }
    }

    private func apply(_ i: Int, to popups: inout [Popup], showMs: [Int], catalog: [Popup]) {
        let list = i < lists.count ? lists[i] : []
        guard !list.isEmpty else {
            if popups[i].respond != catalog[i].respond { popups[i].respond = catalog[i].respond }
            if popups[i].respondByShow != catalog[i].respondByShow { popups[i].respondByShow = catalog[i].respondByShow }
            return
        }
        let animation = showMs[i]
        func response(_ a: Answer) -> Response { Response(after: max(0, a.after &- animation), button: a.button ?? "close") }
        let respond = (list.last { $0 != nil } ?? nil).map(response) ?? catalog[i].respond
        popups[i].respond = respond
        // Written in place, in the storage the last user's list had; the answers at its end
        // that are `respond` left out (a show past the list takes `respond`): a user who answers
        // a popup the same each time leaves none, and the engine counts no shows.
        var n = list.count
        while n > 0, list[n - 1].map(response) == respond { n -= 1 }
        popups[i].respondByShow.removeAll(keepingCapacity: true)
        for a in list[..<n] { popups[i].respondByShow.append(a.map(response)) }
    }

    /// The answer production gave the `k`-th show (0: the first) of popup `p`, if any.
    public func answer(popup p: Int, show k: Int) -> Answer? {
        p < lists.count && k < lists[p].count ? lists[p][k] : nil
    }
}
