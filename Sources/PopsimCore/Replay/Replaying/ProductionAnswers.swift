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

    public init() {}

    /// Whether production answered any show.
    public var answered: Bool { lists.contains { list in list.contains { $0 != nil } } }

    /// Reads `user`'s rows, for a catalog of `popups` popups, in this value's storage.
    public mutating func read(_ user: Replayer.User, popups: Int) {
        if lists.count != popups {
            lists = Array(repeating: [], count: popups)
        } else {
            for i in lists.indices where !lists[i].isEmpty { lists[i].removeAll(keepingCapacity: true) }
        }
        shownAt.refill(nil, count: popups)
        for r in user.rows {
            switch r.entry.verb {
            case .shown?:
                guard let p = r.entry.popupID, Int(p.index) < popups else { continue }
                shownAt[Int(p.index)] = r.time
                lists[Int(p.index)].append(nil)
            case .dismissed?:
                guard let p = r.entry.popupID, Int(p.index) < popups, let shown = shownAt[Int(p.index)] else { continue }
                let i = Int(p.index), k = lists[i].count - 1
                guard k >= 0, lists[i][k] == nil else { continue }
                lists[i][k] = Answer(after: r.time &- shown, button: user.values.text(r.entry.value))
            default: continue
            }
        }
    }

    /// Sets each popup's answers in `popups` (the user's scenario's, changed in place and only
    /// where they differ): production's show by show, the show animation of `showMs` (per popup,
    /// under the column) taken off; the catalog's (`catalog`) for a popup production never showed.
    public func apply(to popups: inout [Popup], showMs: [Int], catalog: [Popup]) {
        for i in popups.indices {
            let list = i < lists.count ? lists[i] : []
            guard !list.isEmpty else {
                if popups[i].respond != catalog[i].respond { popups[i].respond = catalog[i].respond }
                if popups[i].respondByShow != catalog[i].respondByShow { popups[i].respondByShow = catalog[i].respondByShow }
                continue
            }
            let animation = showMs[i]
            func response(_ a: Answer) -> Response { Response(after: max(0, a.after &- animation), button: a.button ?? "close") }
            let respond = (list.last { $0 != nil } ?? nil).map(response) ?? catalog[i].respond
            if popups[i].respond != respond { popups[i].respond = respond }
            if !Self.same(popups[i].respondByShow, list, response) {
                popups[i].respondByShow.removeAll(keepingCapacity: true)
                for a in list { popups[i].respondByShow.append(a.map(response)) }
            }
        }
    }

    /// Whether `set` is `list` read through `response`, compared in place (no list is made).
    static func same(_ set: [Response?], _ list: [Answer?], _ response: (Answer) -> Response) -> Bool {
        guard set.count == list.count else { return false }
        for k in list.indices where set[k] != list[k].map(response) { return false }
        return true
    }

    /// The answer production gave the `k`-th show (0: the first) of popup `p`, if any.
    public func answer(popup p: Int, show k: Int) -> Answer? {
        p < lists.count && k < lists[p].count ? lists[p][k] : nil
    }
}
