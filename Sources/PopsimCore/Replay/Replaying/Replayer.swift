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
    /// The catalog's popups, levels and keys: what every figure is also broken down by.
    public let groups: ReplayGroups
    public let limits: RunLimits
    /// The trace's name, for the scenarios' `file` (messages of a run that stops).
    public let file: String

    /// A property `wait X <= N`: judged per request as well as per user.
    public struct WaitRule: Sendable {
        var property: Int
        var popup: Int
        var limit: Int
    }

    /// The catalog's `wait X <= N` properties.
    let waitRules: [WaitRule]
    /// Whether the catalog has a property only a run's lines judge (not `wait`, not `visible`).
    let judgesOnRuns: Bool

    /// How each property of the catalog is judged for a user (`judge`): read once, not from the
    /// catalog's properties a user (each one copied cost ~100 instructions a run).
    enum Judged: Sendable {
        case visibleAtMost(Int)
        case waitAtMost
        case onRun
    }

    let judged: [Judged]

    public init(catalog: Scenario, columns: [Column], limits: RunLimits, file: String) {
        self.catalog = catalog
        self.columns = columns
        groups = ReplayGroups(catalog: catalog)
        waitRules = catalog.expectations.enumerated().compactMap { i, e in
            guard case .waitAtMost(let p, let limit) = e.property else { return nil }
            return WaitRule(property: i, popup: Int(p.index), limit: limit)
        }
        judged = catalog.expectations.map { e in
            switch e.property {
            case .visibleAtMost(let limit): return .visibleAtMost(limit)
            case .waitAtMost: return .waitAtMost
            default: return .onRun
            }
        }
        judgesOnRuns = judged.contains { if case .onRun = $0 { true } else { false } }
        self.limits = limits
        self.file = file
    }

    /// What a user became under one column, for `--save`: the scenario that ran and whether
    /// each property failed.
    public struct Run: Sendable {
        public var scenario: Scenario
        public var failed: [Bool]
        /// Production's shows, in order, when the run's differ from them (the trace has `shown`
        /// rows); nil when they agree.
        public var production: [PopupID]? = nil
    }

    /// One user: its id, the trace row of its first row, its rows in order (against `values`).
    public struct User: Sendable {
        public var id: String
        public var firstRow: Int
        public var rows: [TimedEntry]
        public var values: TraceValues

        public init(id: String, firstRow: Int, rows: [TimedEntry], values: TraceValues) {
            self.id = id
            self.firstRow = firstRow
            self.rows = rows
            self.values = values
        }

        public var ref: ReplayTally.UserRef { ReplayTally.UserRef(row: firstRow, id: id) }
    }

    /// Replays `user` under every column into `tallies`; `keep` is asked, per column, whether to
    /// hand back the user's scenario when a property fails (the first users are saved).
    ///
    /// A run that does not settle (`RunError.runaway`, `.tooManyLines`) counts the user as one
    /// that did not settle and goes on; any other stop (a plug-in that failed, popsim's own bug)
    /// throws: nothing a report could print would say what that user's run was.
    /// `scratch`: the calling thread's runners and buffers (`ReplayScratch(for:)`), kept from
    /// user to user.
    public func replay(_ user: User, into tallies: inout ReplayTallies, scratch: inout ReplayScratch,
                       keep: (Int, ReplayTally.UserRef) -> Bool = { _, _ in false }) throws(ReplayFailure) -> [(column: Int, run: Run)] {
        let ref = user.ref
        try script(user, ref, into: &scratch.scenario)
        // Production: counted from its rows (`addProduction`), judged as every column is.
        let productionMost = tallies.production.addProduction(user, catalog: catalog.popups, &scratch, groups: groups,
                                                              into: &tallies.productionGroups, waitRules: waitRules)
        // Production's rows as a run's lines only for a property no count answers.
        if judgesOnRuns { scratch.productionRun.make(user, popups: catalog.popups, into: &scratch.productionResult) }
        judge(judgesOnRuns ? scratch.productionResult : nil, most: productionMost, ref, &tallies.production, &tallies.productionGroups, &scratch)
        var kept: [(Int, Run)] = []
        let limits = Self.limits(self.limits, rows: user.rows.count)
        // By index: a `Column` copied per user retained its strings and arrays, shared by every
        // worker's thread.
        for c in columns.indices {
            // The user's scenario is made in one value kept from user to user: its popups and
            // script are changed in place (the runner lets go of it after each run), not copied.
            // Only the popups whose answers the last user's or this user's rows set, and only
            // when the column's show animations are not the last column's.
            if c == 0 || columns[c].showMs != columns[c - 1].showMs {
                scratch.answers.applyOverLast(to: &scratch.scenario.popups, showMs: columns[c].showMs, catalog: catalog.popups)
            }
            let result: RunResult
            do {
                // The runner called with the column's options: the configuration copied per
                // user cost ~330 instructions (its strings and lists retained and released).
                result = try scratch.runners[c].run(scratch.scenario, options: columns[c].configuration.options, limits: limits)
            } catch {
                guard error.settles == false else { throw ReplayFailure(user: ref, column: columns[c].label, error: error) }
                tallies.columns[c].users += 1
                tallies.columns[c].didNotSettle(ref)
                continue
            }
            let most = tallies.columns[c].add(result, &scratch, groups: groups, into: &tallies.columnGroups[c], waitRules: waitRules)
            let agrees = scratch.answers.screen.shown(as: scratch.showTimes)
            if agrees {
                tallies.columns[c].agreeing += 1
                if scratch.answers.screen.keptBy(scratch.showTimes, tolerance: Self.tolerance) {
                    tallies.columns[c].timed += 1
                } else {
                    tallies.columns[c].lateOrEarly(ref)
                }
            } else {
                tallies.columns[c].disagrees(ref)
            }
            judge(result, most: most, ref, &tallies.columns[c], &tallies.columnGroups[c], &scratch)
            if scratch.failed.contains(true) || !agrees, keep(c, ref) {
                kept.append((c, Run(scenario: result.scenario, failed: Array(scratch.failed), production: agrees ? nil : scratch.answers.screen.popups)))
            }
        }
        return kept
    }

    /// Whether each property of the catalog holds (a column's run, or production's), not why (no
    /// verdicts, no notes), into `tally` and the groups the run touched; leaves the verdicts in
    /// `scratch.failed`. `visible <= N` fails exactly when the most on screen at the end of an
    /// instant passed N (`most`: the count the tally just made, read the way `PropertyJudge.visible`
    /// reads it); `wait X <= N` exactly when the tally found a show of X later than N or one of X's
    /// requests open at the end (`scratch.waitFails`, by property); any other on `result`, the run's
    /// lines (production's written as a run, `ProductionRun`; nil only when no such property is).
    func judge(_ result: RunResult?, most: Int, _ ref: ReplayTally.UserRef, _ tally: inout ReplayTally, _ groups: inout [ReplayTally],
               _ scratch: inout ReplayScratch) {
        scratch.failed.refill(false, count: judged.count)
        for (i, j) in judged.enumerated() {
            let fails: Bool
            switch j {
            case .visibleAtMost(let limit): fails = most > limit
            case .waitAtMost: fails = scratch.waitFails[i]
            case .onRun: fails = result.map { PropertyJudge.judge(catalog.expectations[i].property, $0) != nil } ?? false
            }
            guard fails else { continue }
            scratch.failed[i] = true
            tally.failed(i, ref)
            for g in groups.indices where scratch.touched[g] { groups[g].failed(i, ref) }
        }
    }

    /// How far a show's start, or the user's dismissal of it, may be from production's for a
    /// user to agree in timing (docs/replay.md, "agrees in timing"): a second, past any clock's
    /// jitter and short of a popup's display time.
    public static let tolerance = 1_000

    /// A user's run may take, besides a base, so many timeline lines and steps per row of the
    /// user, within the run limits (`--max-lines`, `--max-steps`): a catalog whose popup feeds
    /// itself costs each user what its rows warrant, not the whole run's limit — 700 one-row users
    /// under such a catalog ran 1.8 s each until the timeout (issue 41). A real user's run writes
    /// a few lines a row; a run past this budget did not settle.
    public static let baseLines = 2_000, linesPerRow = 200, baseSteps = 4_000, stepsPerRow = 400

    /// The limits of a run of a user of `rows` rows.
    static func limits(_ limits: RunLimits, rows: Int) -> RunLimits {
        var l = limits
        l.maxLines = min(limits.maxLines, baseLines.plus(linesPerRow.multipliedReportingOverflow(by: rows).overflow ? Int.max : linesPerRow * rows))
        l.maxSteps = min(limits.maxSteps, baseSteps.plus(stepsPerRow.multipliedReportingOverflow(by: rows).overflow ? Int.max : stepsPerRow * rows))
        return l
    }

    /// Replays `user` with buffers of its own (a caller with one user, or no thread to keep them).
    public func replay(_ user: User, into tallies: inout ReplayTallies,
                       keep: (Int, ReplayTally.UserRef) -> Bool = { _, _ in false }) throws(ReplayFailure) -> [(column: Int, run: Run)] {
        var scratch = ReplayScratch(for: self)
        return try replay(user, into: &tallies, scratch: &scratch, keep: keep)
    }

    /// Tallies of no user yet, one per column and per group of each.
    public func emptyTallies() -> ReplayTallies {
        ReplayTallies(columns: columns.count, properties: catalog.expectations.count, groups: groups.count)
    }

    /// A runner per column, for one thread's users.
    public func makeRunners() -> [any ScenarioRunner] { columns.map { $0.configuration.entry.makeRunner() } }

    /// The catalog with the user's actions as its script, times from the user's first row.
    public func scenario(_ user: User, _ ref: ReplayTally.UserRef) throws(ReplayFailure) -> Scenario {
        var events: [ScenarioEvent] = []
        return try scenario(user, ref, events: &events)
    }

    /// The same, its events built in `events` (a buffer the caller keeps).
    func scenario(_ user: User, _ ref: ReplayTally.UserRef, events: inout [ScenarioEvent]) throws(ReplayFailure) -> Scenario {
        var s = template
        s.name = user.id
        try Self.script(user, ref, into: &events)
        s.events = events
        return s
    }

    /// The catalog as every user's scenario starts: the trace's file, no script, no end.
    var template: Scenario {
        var s = catalog
        s.file = file
        s.until = nil
        s.events = []
        return s
    }

    /// Makes `s` (a `template`, perhaps another user's scenario before) the user's: its name and
    /// script, in place.
    func script(_ user: User, _ ref: ReplayTally.UserRef, into s: inout Scenario) throws(ReplayFailure) {
        s.name = user.id
        try Self.script(user, ref, into: &s.events)
    }

    /// The user's actions, times from the user's first row, into `events` (emptied first).
    static func script(_ user: User, _ ref: ReplayTally.UserRef, into events: inout [ScenarioEvent]) throws(ReplayFailure) {
        let start = user.rows.first?.time ?? 0
        events.empty()
        events.reserveCapacity(user.rows.count)
        for r in user.rows {
            guard r.entry.holdsAction else { continue }
            guard let action = r.entry.action(user.values) else {
                throw ReplayFailure(user: ref, column: "", error: .invariant(strategy: "replay", time: r.time &- start,
                                                                             message: "a gathered row does not read back as an action"))
            }
            events.append(ScenarioEvent(at: r.time &- start, action: action, index: events.count, location: SourceLocation(line: 0, column: 0)))
        }
    }
}
