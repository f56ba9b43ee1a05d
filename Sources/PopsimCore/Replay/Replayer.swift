/// Runs each user of a trace under every column (a strategy with its options) and adds the runs
/// up: the core of `popsim replay`, pure and deterministic.
///
/// Contract: a user's result depends on that user's rows, the catalog and the column only, so
/// users may be replayed on any thread in any order; `ReplayTallies.merge` adds them up.
public struct Replayer: Sendable {
    /// One side of the table: a label and the configuration it runs.
    public struct Column: Sendable {
        public var label: String
        public var configuration: RunConfiguration
        /// With `--sweep`: the strategy as named, and the swept values this column runs with.
        public var base = ""
        public var values: [String] = []
        /// The show animation each popup has under this column (its own, else the option).
        let showMs: [Int]

        public init(label: String, configuration: RunConfiguration, catalog: Scenario) {
            self.label = label
            self.configuration = configuration
            let option = configuration.options.integerIfSet("showMs") ?? 0
            showMs = catalog.popups.map { $0.showMs ?? option }
        }
    }

    public let catalog: Scenario
    public let columns: [Column]
    public let limits: RunLimits
    /// The trace's name, for the scenarios' `file` (messages of a run that stops).
    public let file: String

    public init(catalog: Scenario, columns: [Column], limits: RunLimits, file: String) {
        self.catalog = catalog
        self.columns = columns
        self.limits = limits
        self.file = file
    }

    /// What a user became under one column, for `--save`: the scenario that ran and whether
    /// each property failed.
    public struct Run: Sendable {
        public var scenario: Scenario
        public var failed: [Bool]
    }

    /// Replays `user` under every column into `tallies`; `keep` is asked, per column, whether to
    /// hand back the user's scenario when a property fails (the first users are saved).
    ///
    /// A run that does not settle (`RunError.runaway`, `.tooManyLines`) counts the user as one
    /// that did not settle and goes on; any other stop (a plug-in that failed, popsim's own bug)
    /// throws: nothing a report could print would say what that user's run was.
    public func replay(_ user: ReplayUser, into tallies: inout ReplayTallies,
                       keep: (Int, ReplayTally.UserRef) -> Bool = { _, _ in false }) throws(ReplayFailure) -> [(column: Int, run: Run)] {
        let ref = ReplayTally.UserRef(row: user.firstRow, id: user.id)
        let base = user.scenario(catalog, file: file)
        let answers = user.answers(popups: catalog.popups.count)
        let answered = answers.contains { $0 != nil }
        let production = user.productionShows
        tallies.production.addProduction(user, popups: catalog.popups.count)
        var kept: [(Int, Run)] = []
        for (c, column) in columns.enumerated() {
            var scenario = base
            if answered {
                for (i, a) in answers.enumerated() {
                    guard let a else { continue }
                    scenario.popups[i].respond = Response(after: max(0, a.after - column.showMs[i]), button: a.button ?? "close")
                }
            }
            let result: RunResult
            do {
                result = try column.configuration.run(scenario, limits: limits)
            } catch {
                guard error.settles == false else { throw ReplayFailure(user: ref, column: column.label, error: error) }
                tallies.columns[c].users += 1
                tallies.columns[c].didNotSettle(ref)
                continue
            }
            let shows = tallies.columns[c].add(result)
            if shows == production { tallies.columns[c].agreeing += 1 }
            // Whether each property holds, not why (no verdicts, no notes).
            let expectations = result.scenario.expectations
            var failed = [Bool](repeating: false, count: expectations.count)
            for (i, e) in expectations.enumerated() where PropertyJudge.judge(e.property, result) != nil {
                failed[i] = true
                tallies.columns[c].failed(i, ref)
            }
            if failed.contains(true), keep(c, ref) { kept.append((c, Run(scenario: scenario, failed: failed))) }
        }
        return kept
    }
}

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
    mutating func addProduction(_ user: ReplayUser, popups: Int) {
        users += 1
        var open = OpenRequests(subjects: popups)
        for e in user.entries {
            switch e.kind {
            case .action(.enqueue(let p)):
                requests += 1
                open.open(Int(p.index), at: e.time, request: true)
            case .shown(let p):
                guard let (since, _) = open.settleOldest(Int(p.index)) else { continue }
                shown += 1
                waits.add(e.time - since)
            case .action(.clear):
                for p in 0..<popups { open.settleAll(p) }
            case .action(.remove(let p)):
                open.settleAll(Int(p.index))
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
