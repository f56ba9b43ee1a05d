/// Judges a run against its scenario's `expect`: a pure function of the run's timeline (and its
/// end and pending list), the same for every strategy.
public enum PropertyJudge {
    /// One verdict per `expect` entry, in the file's order.
    public static func verdicts(_ result: RunResult) -> [PropertyVerdict] {
        result.scenario.expectations.map { e in
            let failure = judge(e.property, result)
            return PropertyVerdict(expectation: e, failure: failure, note: failure == nil ? note(e.property, result) : nil)
        }
    }

    /// Why a property that holds holds only in part: the requests of `wait X` that were dropped.
    public static func note(_ property: Property, _ result: RunResult) -> PartialHold? {
        guard case .waitAtMost(let x, _) = property else { return nil }
        var open = 0, dropped: [Int] = [], shown = false
        let timeline = result.timeline
        for e in timeline.entries where timeline.isPopup(e.subject, x) {
            switch e.ledger {
            case .opens: open += 1
            case .settles where e.event == .show:
                if open > 0 { open -= 1 }
                shown = true
            case .settles:
                if open > 0 {
                    open -= 1
                    dropped.append(e.t)
                }
            case .none: continue
            }
        }
        guard !dropped.isEmpty else { return nil }
        return PartialHold(name: result.scenario.name(of: x), dropped: dropped, shown: shown)
    }

    /// Nil when `property` holds on `result`.
    public static func judge(_ property: Property, _ result: RunResult) -> PropertyVerdict.Failure? {
        let entries = result.timeline.entries
        switch property {
        case .noWarning(let reason):
            guard let e = entries.first(where: { $0.event == .warning && $0.reason == reason }) else { return nil }
            return .init(at: e.t, evidence: .warning(subject: result.timeline.subjectName(e) ?? "", reason: reason, at: e.t))
        case .noPending:
            guard !result.pending.isEmpty else { return nil }
            return .init(at: result.end, evidence: .stillQueued(names: result.pending.map { result.scenario.name(of: $0) }, end: result.end))
        case .shown(let x):
            guard firstShow(of: x, result.timeline) == nil else { return nil }
            let enqueued = entries.contains { $0.event == .enqueue && result.timeline.isPopup($0.subject, x) }
            return .init(at: result.end, evidence: .neverShown(name: result.scenario.name(of: x), enqueued: enqueued))
        case .neverShown(let x):
            guard let i = firstShow(of: x, result.timeline) else { return nil }
            return .init(at: entries[i].t, evidence: .shown(name: result.scenario.name(of: x), at: entries[i].t))
        case .before(let x, let y):
            guard let iy = firstShow(of: y, result.timeline) else { return nil }
            let ix = firstShow(of: x, result.timeline)
            if let ix, ix < iy { return nil }
            return .init(at: entries[iy].t, evidence: .shownFirst(name: result.scenario.name(of: y), at: entries[iy].t,
                                                                   other: result.scenario.name(of: x), otherAt: ix.map { entries[$0].t }))
        case .waitAtMost(let x, let limit):
            return wait(of: x, atMost: limit, result, result.scenario.name(of: x))
        case .visibleAtMost(let limit):
            return visible(atMost: limit, result)
        case .showsAtMost(let x, let count, let window):
            let times = entries.filter { e in e.event == .show && (x.map { result.timeline.isPopup(e.subject, $0) } ?? true) }.map(\.t)
            guard count < times.count else { return nil }
            for i in 0..<(times.count - count) where times[i + count] - times[i] < window {
                return .init(at: times[i + count], evidence: .shows(count: count + 1, of: x.map { result.scenario.name(of: $0) },
                                                                    from: times[i], to: times[i + count], window: window))
            }
            return nil
        }
    }

    /// The first `show` of `p` or of an instance of it.
    static func firstShow(of p: PopupID, _ timeline: Timeline) -> Int? {
        timeline.entries.firstIndex { $0.event == .show && timeline.isPopup($0.subject, p) }
    }

    /// Requests of `x` by the ledger: a show answers the oldest open one, a drop the newest (a
    /// duplicate is dropped as it arrives); any still open at the end fails. Each instance of `x`
    /// keeps its own requests; the earliest failure of any of them is `x`'s.
    static func wait(of x: PopupID, atMost limit: Int, _ result: RunResult, _ name: String) -> PropertyVerdict.Failure? {
        result.timeline.subjects(of: x).compactMap { wait(ofSubject: $0, atMost: limit, result, name) }.min { $0.at < $1.at }
    }

    static func wait(ofSubject x: Int32, atMost limit: Int, _ result: RunResult, _ name: String) -> PropertyVerdict.Failure? {
        // Open requests from `head` on: a show takes the oldest, a drop the newest.
        var open: [Int] = []
        var head = 0
        for e in result.timeline.entries where e.subject == x {
            switch e.ledger {
            case .opens: open.append(e.t)
            case .settles where e.event == .show:
                guard head < open.count else { continue }
                let since = open[head]
                head += 1
                if e.t - since > limit {
                    return .init(at: e.t, evidence: .waited(name: name, requested: since, shown: e.t))
                }
            case .settles:
                if head < open.count { open.removeLast() }
            case .none:
                continue
            }
        }
        guard head < open.count else { return nil }
        let since = open[head]
        return .init(at: result.end, evidence: .stillWaiting(name: name, requested: since, end: result.end))
    }

    /// On screen from `show` to `gone` (or to a hide without animation), counted at the end of
    /// each instant: a popup that leaves as another arrives in one instant is not counted twice.
    static func visible(atMost limit: Int, _ result: RunResult) -> PropertyVerdict.Failure? {
        let entries = result.timeline.entries
        let animated = result.timeline.animatedTransitions()
        // Per subject: on screen or not, and how many are (O(1) a line).
        var screen = ScreenCount(subjects: result.timeline.subjects.count)
        var i = 0
        while i < entries.count {
            let t = entries[i].t
            while i < entries.count, entries[i].t == t {
                screen.read(entries[i], animated: animated[i])
                i += 1
            }
            if screen.visible > limit {
                let names = screen.onScreen.indices.filter { screen.onScreen[$0] }.map { result.timeline.subjects[$0] }
                return .init(at: t, evidence: .onScreen(count: screen.visible, at: t, names: names))
            }
        }
        return nil
    }
}
