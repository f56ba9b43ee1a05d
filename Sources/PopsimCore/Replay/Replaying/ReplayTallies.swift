/// The production column and one tally per column.
public struct ReplayTallies: Sendable, Equatable {
    public var production: ReplayTally
    public var columns: [ReplayTally]

    public init(columns: Int, properties: Int) {
        production = ReplayTally(properties: 0)
        self.columns = Array(repeating: ReplayTally(properties: properties), count: columns)
    }

    public mutating func merge(_ o: ReplayTallies) {
        production.merge(o.production)
        for i in columns.indices { columns[i].merge(o.columns[i]) }
    }
}

extension ReplayTally {
    /// Adds one run; returns its shows in order (to compare with production's).
    mutating func add(_ result: RunResult) -> [PopupID] {
        users += 1
        let entries = result.timeline.entries
        let animated = result.timeline.animatedTransitions()
        let subjects = result.timeline.subjects.count
        // Per subject: open requests (time, opened by an enqueue), oldest first.
        var open = OpenRequests(subjects: subjects)
        var screen = ScreenCount(subjects: subjects)
        var shows: [PopupID] = []
        var i = 0
        while i < entries.count {
            let t = entries[i].t
            while i < entries.count, entries[i].t == t {
                let e = entries[i]
                let s = Int(e.subject)
                switch e.event {
                case .enqueue: requests += 1
                case .drop: if let r = e.reason { drops[r.ordinal] += 1 }
                case .warning where e.reason == .lost: lost += 1
                case .warning where e.reason == .overlap: overlaps += 1
                default: break
                }
                if s >= 0 {
                    switch e.ledger {
                    case .opens: open.open(s, at: e.t, request: e.event == .enqueue)
                    case .settles where e.event == .show:
                        if let (since, request) = open.settleOldest(s), request {
                            shown += 1
                            waits.add(e.t - since)
                        }
                    case .settles: open.settleNewest(s)
                    case .none: break
                    }
                    if e.event == .show { shows.append(PopupID(s)) }
                    screen.read(e, animated: animated[i])
                }
                i += 1
            }
            mostOnScreen = Swift.max(mostOnScreen, screen.visible)
        }
        pending += result.pending.count
        return shows
    }

    /// Adds what production did for `user`: its requests, shows and waits. A `shown` answers the
    /// oldest open request of its popup; the trace's own `clear` and `remove` close requests; a
    /// request production dropped unseen (a duplicate, a condition) stays open (docs/replay.md).
    mutating func addProduction(_ user: Replayer.User, popups: Int) {
        users += 1
        var open = OpenRequests(subjects: popups)
        for r in user.rows {
            guard let verb = r.entry.verb else { continue }
            switch verb {
            case .action(.enqueue):
                guard let p = r.entry.popupID else { continue }
                requests += 1
                open.open(Int(p.index), at: r.time, request: true)
            case .shown:
                guard let p = r.entry.popupID, let (since, _) = open.settleOldest(Int(p.index)) else { continue }
                shown += 1
                waits.add(r.time &- since)
            case .action(.clear):
                for p in 0..<popups { open.settleAll(p) }
            case .action(.remove):
                if let p = r.entry.popupID { open.settleAll(Int(p.index)) }
            default: continue
            }
        }
    }
}

/// Open requests per subject, oldest first: what a show (the oldest) or a drop (the newest)
/// settles (docs/engine.md, "The ledger"). O(1) a line.
struct OpenRequests {
    /// Per subject: (time, opened by an enqueue), and where the unsettled ones start.
    private var queues: [[(Int, Bool)]]
    private var heads: [Int]

    init(subjects: Int) {
        queues = Array(repeating: [], count: subjects)
        heads = Array(repeating: 0, count: subjects)
    }

    mutating func open(_ s: Int, at t: Int, request: Bool) { queues[s].append((t, request)) }

    mutating func settleOldest(_ s: Int) -> (Int, Bool)? {
        guard heads[s] < queues[s].count else { return nil }
        heads[s] += 1
        return queues[s][heads[s] - 1]
    }

    mutating func settleAll(_ s: Int) { heads[s] = queues[s].count }

    mutating func settleNewest(_ s: Int) {
        if heads[s] < queues[s].count { queues[s].removeLast() }
    }
}
