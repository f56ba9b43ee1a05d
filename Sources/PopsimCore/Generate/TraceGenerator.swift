/// A seeded synthetic trace of many users and its catalog (`popsim gen --trace`): a week of
/// sessions with a daily rhythm, campaigns sent to every user online at the same minute,
/// screens, and what production did — the `shown`, `dismissed` and `dropped` rows of each user run under
/// `strategy` (a built-in, a policy file's rules, a plug-in: any of `strategies`) — so that
/// `replay` has a production column to agree with, and `fit` a known truth to find.
///
/// Contract: the same users, seed and strategy give the same bytes; rows are in time order
/// across users (users interleave, as in real traffic); replayed under `strategy`, every user
/// agrees with production. A user whose run fails stops the whole trace with that error: a
/// trace never leaves production's rows out.
public struct TraceGenerator: Sendable {
    public var users: Int
    public var seed: UInt64
    public var strategy: String
    public var strategies: StrategySet
    /// Options of `strategy` (`gen --trace --option`): production's rules away from the defaults.
    public var overrides: [OptionOverride] = []

    public init(users: Int, seed: UInt64, strategy: String = "fg", strategies: StrategySet = .builtIn) {
        self.users = users
        self.seed = seed
        self.strategy = strategy
        self.strategies = strategies
    }

    /// The catalog the trace is written against.
    public static let catalog = """
        {
          "popsim": 1,
          "name": "app",
          "description": "The popups of an app, for popsim gen --trace.",
          "strategy": "fg",
          "state": {"screen": "home"},
          "popups": {
            "upgrade": {"priority": 1000, "duration": 8000, "then": {"update": [], "later": []}},
            "permission": {"priority": 900, "duration": 10000, "then": {"allow": []}},
            "rate": {"priority": 200, "duration": 6000, "then": {"ok": []}},
            "campaign": {"priority": 100, "duration": 6000, "when": "screen == 'home'"},
            "guide": {"priority": 50, "duration": 5000, "when": "screen == 'cart'"},
            "toast": {"priority": 10, "duration": 2000}
          },
          "expect": ["wait upgrade <= 20000", "wait campaign <= 60000", "visible <= 1"]
        }

        """

    /// 2026-11-16T00:00:00Z, the Monday the week starts.
    static let start = TraceTime.daysFromCivil(2026, 11, 16) * 86_400_000
    static let day = 86_400_000
    /// Weights of the hours of a day (morning, lunch and evening peaks).
    static let rhythm = [1, 1, 1, 1, 1, 2, 4, 8, 10, 8, 5, 5, 8, 7, 5, 5, 6, 7, 9, 10, 10, 8, 4, 2]
    /// Campaigns: sent at one minute to every user online then (day, hour, minute).
    static let campaigns = [(1, 12, 0), (3, 19, 30), (5, 9, 0)]
    /// Shows a user answers one by one (each popup's); the last answer stands for the rest.
    static let answeredShows = 8

    struct Row {
        var time: Int
        var user: Int
        var seq: Int
        var action: String
        var popup: String
        var value: String
    }

    /// The catalog, loaded.
    static func loadedCatalog() throws(PopsimError) -> Scenario {
        switch ScenarioLoader.load(Array(Self.catalog.utf8), file: "app.json", catalog: StrategyRegistry.catalog) {
        case .success(let loaded): return loaded
        case .failure(let errors): throw .input(errors)
        }
    }

    /// Throws what running the catalog under `strategy` with `overrides` would (an unknown
    /// option, a bad value): asked before anything is written.
    public func check() throws(PopsimError) {
        _ = try RunConfiguration.resolve(try Self.loadedCatalog(), strategy: strategy, overrides: overrides, strategies: strategies)
    }

    /// The trace as CSV, with its header; the first user's run that fails stops it.
    public func csv() throws(PopsimError) -> String {
        let catalog = try Self.loadedCatalog()
        var rng = SplitMix64(seed: seed)
        var rows: [Row] = []
        for u in 0..<users {
            rows += try user(u, catalog: catalog, rng: &rng)
        }
        rows.sort { ($0.time, $0.user, $0.seq) < ($1.time, $1.user, $1.seq) }
        var out = "user,time,action,popup,value\n"
        for r in rows { out += "u\(r.user),\(r.time),\(r.action),\(r.popup),\(r.value)\n" }
        return out
    }

    /// One user's week: its actions, then production's shows and dismissals under `strategy`.
    func user(_ u: Int, catalog: Scenario, rng: inout SplitMix64) throws(PopsimError) -> [Row] {
        var actions: [(Int, String, String, String)] = []
        let sessions = 1 + rng.below(6)
        let names = catalog.popups.map(\.name)
        for _ in 0..<sessions {
            let t0 = Self.start + rng.below(7) * Self.day + hour(&rng) * 3_600_000 + rng.below(3_600_000)
            var t = t0
            actions.append((t, "set", "", "screen=home"))
            if rng.below(4) == 0 { actions.append((t + 300, "enqueue", "upgrade", "")) }
            if rng.below(5) == 0 { actions.append((t + 500, "enqueue", "permission", "")) }
            for _ in 0..<(1 + rng.below(5)) {
                t += 1000 + rng.below(20_000)
                switch rng.below(6) {
                case 0: actions.append((t, "set", "", "screen=cart"))
                case 1: actions.append((t, "set", "", "screen=home"))
                default: actions.append((t, "enqueue", names[2 + rng.below(names.count - 2)], ""))
                }
            }
            // Online at a campaign's minute: it arrives then.
            for (d, h, m) in Self.campaigns {
                let at = Self.start + d * Self.day + (h * 60 + m) * 60_000
                if at > t0, at < t + 60_000 { actions.append((at, "enqueue", "campaign", "")) }
            }
            // The app goes to the background: what waits is gone.
            actions.append((t + 60_000, "clear", "", ""))
        }
        actions.sort { $0.0 < $1.0 }
        var rows = actions.enumerated().map { Row(time: $1.0, user: u, seq: $0, action: $1.1, popup: $1.2, value: $1.3) }
        var values = TraceValues()
        let decoder = TraceRowDecoder(file: "", layout: TraceLayout(format: .csv), catalog: catalog)
        var entries: [TimedEntry] = []
        var failed: TraceError?
        for (i, a) in actions.enumerated() {
            let texts: [TraceField: String] = [.user: "u\(u)", .time: String(a.0), .action: a.1, .popup: a.2, .value: a.3]
            TraceRow.withTexts(texts, row: i + 1, line: i + 1) { row in
                var failure: TraceError?
                if let d = decoder.decode(row, values: &values, failure: &failure) { entries.append(TimedEntry(time: d.time, entry: d.entry)) }
                if failed == nil { failed = failure }
            }
        }
        // The generator's own rows always read; one that does not is popsim's bug, not a row to leave out.
        if let failed { throw .internalError("gen --trace wrote a row it cannot read back: \(failed.problem)") }
        let user = Replayer.User(id: "u\(u)", firstRow: 0, rows: entries, values: values)
        var scenario: Scenario
        do {
            scenario = try Replayer(catalog: catalog, columns: [], limits: RunLimits(), file: "u\(u)").scenario(user, user.ref)
        } catch {
            throw .replay(error)
        }
        // How this user answers each popup, if at all: each show on its own (quicker or slower,
        // another button, now and then not at all), the last answer for every show past them.
        for i in scenario.popups.indices where rng.below(3) > 0 {
            let buttons = ["close"] + scenario.popups[i].then.map(\.button)
            let list = (0..<Self.answeredShows).map { _ -> Response? in
                rng.below(6) == 0 ? nil : Response(after: 300 + rng.below(5000), button: buttons[rng.below(buttons.count)])
            }
            scenario.popups[i].respondByShow = list
            scenario.popups[i].respond = list.last { $0 != nil } ?? nil
        }
        let result = try Pipeline.run(scenario, strategy: strategy, overrides: overrides, strategies: strategies)
        let t0 = entries.first?.time ?? 0
        // A popup's instances (`InstancePolicy.perRequest`) are that popup in production's rows.
        for e in result.timeline.entries where e.subject >= 0 && Int(e.subject) < result.scenario.popups.count {
            let name = result.timeline.subjects[Int(result.timeline.base(e.subject))]
            if e.event == .show {
                rows.append(Row(time: t0 + e.t, user: u, seq: rows.count, action: "shown", popup: name, value: ""))
            } else if e.event == .hide, e.reason == .user {
                rows.append(Row(time: t0 + e.t, user: u, seq: rows.count, action: "dismissed", popup: name, value: result.timeline.button(e) ?? ""))
            } else if e.ledger == .settles {
                // A request let go unseen (a drop, a `warning … lost`), with its reason.
                rows.append(Row(time: t0 + e.t, user: u, seq: rows.count, action: "dropped", popup: name, value: e.reason?.rawValue ?? ""))
            }
        }
        return rows
    }

    func hour(_ rng: inout SplitMix64) -> Int {
        var r = rng.below(Self.rhythm.reduce(0, +))
        for (h, w) in Self.rhythm.enumerated() {
            if r < w { return h }
            r -= w
        }
        return 23
    }
}
