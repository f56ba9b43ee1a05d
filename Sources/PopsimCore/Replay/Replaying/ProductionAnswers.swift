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
/// The answers are kept on production's shows (`ProductionScreen`, one record a show), which
/// also judge timing and count production's screen.
///
/// Contract: with every show answered as production answered it, a run under production's own
/// rules shows and hides every popup when production did.
public struct ProductionAnswers: Sendable {
    /// One show's answer: time from the `shown` row to the `dismissed` row, and its button.
    public struct Answer: Sendable, Equatable {
        public var after: Int
        public var button: String?
    }

    /// Production's shows, each with its answer.
    var screen = ProductionScreen()
    /// The popups production showed, in the order of their first show: the only ones whose
    /// answers are not the catalog's.
    public private(set) var shown: [Int] = []
    /// The last user's `shown`: the popups whose answers, set on a scenario kept from user to
    /// user, this user's must set back where its own rows do not (`apply(only:)`).
    public private(set) var previous: [Int] = []
    /// The values of the user whose rows these are (its buttons' texts).
    private var values: TraceValues?

    public init() {}

    /// Whether production answered any show.
    public var answered: Bool { screen.shows.contains(where: \.answered) }

    /// Reads `user`'s rows, for a catalog of `popups` popups, in this value's storage.
    public mutating func read(_ user: Replayer.User, popups: Int) {
        begin(popups: popups, values: user.values, from: user.rows.first?.time ?? 0)
        for r in user.rows {
            if let verb = r.entry.verb { take(verb, popup: r.entry.popupID.map { Int($0.index) } ?? -1, popups: popups, at: r.time, value: r.entry.value) }
        }
    }

    /// No show yet, for a catalog of `popups` popups and a user of `values` whose first row is
    /// at `t0` (a pass over a user's rows that reads other things too feeds `take` itself:
    /// `ReplayTally.addProduction`).
    mutating func begin(popups: Int, values: TraceValues, from t0: Int) {
        self.values = values
        swap(&shown, &previous)
        shown.removeAll(keepingCapacity: true)
        screen.reset(popups: popups, from: t0)
    }

    /// One row of the user's, in order (`popup` -1: none; `value`: its value's id).
    @inline(__always)
    mutating func take(_ verb: TraceVerb, popup p: Int, popups: Int, at t: Int, value: Int32) {
        if verb == .shown, p >= 0, p < popups, !screen.hasShown(p) { shown.append(p) }
        screen.take(verb, popup: p, popups: popups, at: t, value: value)
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

    /// Sets the answers on popups the last user's were set on (a scenario kept from user to
    /// user): this user's popups, and the last user's this one did not show back to the catalog's
    /// (each popup once: both lists hold most popups of most users).
    public func applyOverLast(to popups: inout [Popup], showMs: [Int], catalog: [Popup]) {
        for i in previous where i < popups.count && !screen.hasShown(i) { apply(i, to: &popups, showMs: showMs, catalog: catalog) }
        for i in shown where i < popups.count { apply(i, to: &popups, showMs: showMs, catalog: catalog) }
    }

    private func apply(_ i: Int, to popups: inout [Popup], showMs: [Int], catalog: [Popup]) {
        let shows = screen.shows, first = screen.firstShow(of: i)
        guard first >= 0 else {
            if popups[i].respond != catalog[i].respond { popups[i].respond = catalog[i].respond }
            if popups[i].respondByShow != catalog[i].respondByShow { popups[i].respondByShow = catalog[i].respondByShow }
            return
        }
        var last: ProductionScreen.Show?
        var k = first
        while k >= 0 {
            if shows[k].answered { last = shows[k] }
            k = Int(shows[k].next)
        }
        let animation = showMs[i]
        func response(_ a: ProductionScreen.Show) -> Response? {
            a.answered ? Response(after: max(0, a.after &- animation), button: button(a.button)) : nil
        }
        let respond = last.flatMap(response) ?? catalog[i].respond
        if popups[i].respond != respond { popups[i].respond = respond }
        // Whether a show's answer is `respond`, read without making it (strings retained and
        // compared for every show cost ~1,000 instructions a user).
        func isRespond(_ a: ProductionScreen.Show) -> Bool {
            guard let last else { return respond == nil }
            guard a.answered else { return false }
            return max(0, a.after &- animation) == max(0, last.after &- animation)
                && (a.button == last.button || button(a.button) == button(last.button))
        }
        // The answers at the list's end that are `respond` are left out (a show past the list
        // takes `respond`): a user who answers a popup the same each time leaves none, and the
        // engine counts no shows.
        var n = 0, count = 0
        k = first
        while k >= 0 {
            count += 1
            if !isRespond(shows[k]) { n = count }
            k = Int(shows[k].next)
        }
        // Written in place, in the storage the last user's list had; an empty list is not
        // emptied again (`removeAll(keepingCapacity:)` of the shared empty storage allocates).
        guard n > 0 || !popups[i].respondByShow.isEmpty else { return }
        popups[i].respondByShow.removeAll(keepingCapacity: true)
        k = first
        while k >= 0, popups[i].respondByShow.count < n {
            popups[i].respondByShow.append(response(shows[k]))
            k = Int(shows[k].next)
        }
    }

    /// A button's text (none: `close`).
    private func button(_ id: Int32) -> String { values?.text(id) ?? "close" }

    /// The answer production gave the `k`-th show (0: the first) of popup `p`, if any.
    public func answer(popup p: Int, show k: Int) -> Answer? {
        var s = screen.firstShow(of: p)
        for _ in 0..<k where s >= 0 { s = Int(screen.shows[s].next) }
        guard s >= 0, screen.shows[s].answered else { return nil }
        return Answer(after: screen.shows[s].after, button: values?.text(screen.shows[s].button))
    }
}
