/// The production column and one tally per column, each also per group of popups
/// (`ReplayGroups`: by popup, level and key).
public struct ReplayTallies: Sendable, Equatable {
    public var production: ReplayTally
    public var columns: [ReplayTally]
    /// Per group: production's tally of its popups, and each column's (`[column][group]`).
    public var productionGroups: [ReplayTally]
    public var columnGroups: [[ReplayTally]]

    public init(columns: Int, properties: Int, groups: Int = 0) {
        production = ReplayTally(properties: properties)
        self.columns = Array(repeating: ReplayTally(properties: properties), count: columns)
        productionGroups = Array(repeating: ReplayTally(properties: properties), count: groups)
        columnGroups = Array(repeating: Array(repeating: ReplayTally(properties: properties), count: groups), count: columns)
    }

    /// Counts each level's and key's group from its popups' (during the runs they count only
    /// their users and failures): once, when the workers' tallies are added up, before a
    /// report is made. Sums commute with merging, so shards completed apart merge exactly.
    public mutating func completeGroups(_ map: ReplayGroups) {
        func complete(_ groups: inout [ReplayTally]) {
            for (k, members) in map.members.enumerated() where map.popups + k < groups.count {
                for p in members { groups[map.popups + k].mergeCounts(groups[p]) }
            }
        }
        complete(&productionGroups)
        for c in columnGroups.indices { complete(&columnGroups[c]) }
    }

    public mutating func merge(_ o: ReplayTallies) {
        production.merge(o.production)
        for i in columns.indices { columns[i].merge(o.columns[i]) }
        for g in productionGroups.indices where g < o.productionGroups.count { productionGroups[g].merge(o.productionGroups[g]) }
        for c in columnGroups.indices where c < o.columnGroups.count {
            for g in columnGroups[c].indices where g < o.columnGroups[c].count { columnGroups[c][g].merge(o.columnGroups[c][g]) }
        }
    }
}

extension ReplayTally {
    /// Adds one run, using `scratch`'s buffers; leaves its shows in order in `scratch.showTimes`
    /// (to compare with production's) and returns the most popups it had on screen at once. Each
    /// request, drop, warning, show and pending popup also counts in its popup's group (of
    /// `groups`), and a group with a request counts the user (`RequestedGroups`; the groups
    /// are marked in `scratch.touched`, left for the properties).
    ///
    /// `waitRules`: the properties `wait X <= N` (property, X's index, N): each request of X is
    /// judged, and late until it is shown within N.
    mutating func add(_ result: RunResult, _ scratch: inout ReplayScratch, groups map: ReplayGroups, into groups: inout [ReplayTally],
                      waitRules: [Replayer.WaitRule] = []) -> Int {
        users += 1
        let grouped = !groups.isEmpty, popups = map.popups
        let entries = result.timeline.entries
        result.timeline.animatedTransitions(into: &scratch.animated, open: &scratch.openSubjects)
        let subjects = result.timeline.subjects.count
        // Per subject: open requests (time, opened by an enqueue), oldest first.
        scratch.requests.reset(subjects: subjects)
        scratch.screen.reset(subjects: subjects)
        scratch.showTimes.reset(subjects: subjects)
        scratch.waitFails.refill(false, count: judgedRequests.count)
        var most = 0
        var i = 0
        while i < entries.count {
            let t = entries[i].t
            while i < entries.count, entries[i].t == t {
                let e = entries[i]
                // `s` keeps its own requests and place on screen; `b`, the file's popup it is
                // (an instance counts as its popup), is what figures are broken down by.
                let s = Int(e.subject), b = Int(result.timeline.base(e.subject))
                switch e.event {
                case .enqueue:
                    requests += 1
                    if grouped, s >= 0, b < popups {
                        groups[b].requests += 1
                        scratch.requested.note(b)
                    }
                    for w in waitRules where w.popup == b {
                        judgedRequests[w.property] += 1
                        lateRequests[w.property] += 1
                    }
                case .drop:
                    if let r = e.reason {
                        drops[r.ordinal] += 1
                        if grouped, s >= 0, b < popups { groups[b].drops[r.ordinal] += 1 }
                    }
                case .warning where e.reason == .lost:
                    lost += 1
                    if grouped, s >= 0, b < popups { groups[b].lost += 1 }
                case .warning where e.reason == .overlap:
                    overlaps += 1
                    if grouped, s >= 0, b < popups { groups[b].overlaps += 1 }
                default: break
                }
                if s >= 0 {
                    if let (since, request) = scratch.requests.read(e, s) {
                        // `wait X <= N` fails for the user on any show of X later than N,
                        // whatever opened it (`PropertyJudge.wait`); a request shown within N
                        // is no longer late.
                        for w in waitRules where w.popup == b {
                            if e.t - since > w.limit { scratch.waitFails[w.property] = true } else if request { lateRequests[w.property] -= 1 }
                        }
                        if request {
                            shown += 1
                            waits.add(e.t - since)
                            if grouped, b < popups {
                                groups[b].shown += 1
                                groups[b].waits.add(e.t - since)
                            }
                        }
                    }
                    if e.event == .show {
                        scratch.showTimes.show(s, popup: PopupID(b), at: t)
                    } else if e.event == .hide, e.reason == .user {
                        scratch.showTimes.userEnded(s, at: t)
                    }
                    scratch.screen.read(e, animated: scratch.animated[i])
                }
                i += 1
            }
            most = Swift.max(most, scratch.screen.visible)
        }
        // ... or when one of X's requests is still open at the end.
        for w in waitRules where !scratch.waitFails[w.property] {
            scratch.waitFails[w.property] = (0..<subjects).contains { s in
                Int(result.timeline.base(Int32(s))) == w.popup && scratch.requests.isOpen(s)
            }
        }
        mostOnScreen = Swift.max(mostOnScreen, most)
        pending += result.pending.count
        if grouped {
            for p in result.pending {
                let b = Int(result.timeline.base(p.index))
                if b >= 0, b < popups { groups[b].pending += 1 }
            }
            scratch.requested.countUsers(in: &groups, map, touched: &scratch.touched)
        }
        return most
    }
}

/// Open requests per subject, oldest first: what a show (the oldest) or a drop (the newest)
/// settles (docs/engine.md, "The ledger"). O(1) a line; one flat list of requests linked per
/// subject, so that emptying it for the next run keeps its storage. Each subject's oldest and
/// newest sit side by side in one array, changed through its buffer: an array's every write
/// checked its uniqueness (four checks an opening, ~100 instructions).
struct OpenRequests {
    private struct Item {
        var time: Int
        var request: Bool
        var previous: Int32
        var next: Int32
    }

    private struct Ends {
        var oldest: Int32 = -1
        var newest: Int32 = -1
    }

    private var items: [Item] = []
    /// Per subject: its oldest and newest open request (-1: none).
    private var ends: [Ends]

    init(subjects: Int) {
        ends = Array(repeating: Ends(), count: subjects)
    }

    /// None open, for as many subjects, in this one's storage.
    mutating func reset(subjects: Int) {
        items.empty()
        ends.refill(Ends(), count: subjects)
    }

    @inline(__always)
    mutating func open(_ s: Int, at t: Int, request: Bool) {
        let k = Int32(items.count)
        let newest = ends[s].newest
        items.append(Item(time: t, request: request, previous: newest, next: -1))
        if newest >= 0 { items.withUnsafeMutableBufferPointer { $0[Int(newest)].next = k } }
        ends.withUnsafeMutableBufferPointer { ends in
            if newest < 0 { ends[s].oldest = k }
            ends[s].newest = k
        }
    }

    /// Whether `s` has an open item.
    func isOpen(_ s: Int) -> Bool { ends[s].oldest >= 0 }

    /// Timeline line `e` of subject `s` read by the ledger: it opens an item, or settles the
    /// oldest (a show) or the newest (a drop). A show that settles an item returns when it was
    /// opened and whether by a request (an `enqueue`): then one request was shown.
    @inline(__always)
    mutating func read(_ e: Timeline.Entry, _ s: Int) -> (since: Int, request: Bool)? {
        switch e.ledger {
        case .opens: open(s, at: e.t, request: e.event == .enqueue)
        case .settles where e.event == .show:
            return settleOldest(s)
        case .settles: settleNewest(s)
        case .none: break
        }
        return nil
    }

    mutating func settleOldest(_ s: Int) -> (Int, Bool)? {
        let k = ends[s].oldest
        guard k >= 0 else { return nil }
        let item = items[Int(k)]
        if item.next >= 0 { items.withUnsafeMutableBufferPointer { $0[Int(item.next)].previous = -1 } }
        ends.withUnsafeMutableBufferPointer { ends in
            ends[s].oldest = item.next
            if item.next < 0 { ends[s].newest = -1 }
        }
        return (item.time, item.request)
    }

    mutating func settleAll(_ s: Int) {
        ends[s] = Ends()
    }

    mutating func settleNewest(_ s: Int) {
        let k = ends[s].newest
        guard k >= 0 else { return }
        let previous = items[Int(k)].previous
        if previous >= 0 { items.withUnsafeMutableBufferPointer { $0[Int(previous)].next = -1 } }
        ends.withUnsafeMutableBufferPointer { ends in
            ends[s].newest = previous
            if previous < 0 { ends[s].oldest = -1 }
        }
    }
}
