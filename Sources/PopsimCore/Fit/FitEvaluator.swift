/// Scores candidates on users of a `FitData`: each user's scenario run under the candidate, its
/// shows set against production's.
///
/// Contract: a score is a pure function of the candidate and the users; a runaway run counts as
/// a disagreeing user; any other stop (a plug-in that failed, popsim's own bug) throws, the first
/// by user order.
public struct FitEvaluator: Sendable {
    public let data: FitData
    public let strategies: StrategySet
    public let limits: RunLimits

    public init(data: FitData, strategies: StrategySet, limits: RunLimits) {
        self.data = data
        self.strategies = strategies
        self.limits = limits
    }

    /// The candidate resolved against the catalog; nil when it cannot run it (a combination of
    /// options the strategy or the catalog rejects).
    public func configuration(_ c: FitCandidate) -> RunConfiguration? {
        try? RunConfiguration.resolve(data.catalog, strategy: c.strategy, overrides: c.overrides, strategies: strategies)
    }

    /// What one thread keeps between users: a runner and buffers.
    public struct Scratch {
        var runner: any ScenarioRunner
        var counts: [Int] = []
        var showTimes = ShowTimes()
    }

    public func scratch(for configuration: RunConfiguration) -> Scratch { Scratch(runner: configuration.entry.makeRunner()) }

    /// The score of `configuration` on `users` (indices into `data.users`).
    public func score(_ configuration: RunConfiguration, label: String, users: some Collection<Int>,
                      scratch: inout Scratch) throws(ReplayFailure) -> FitScore {
        let showMs = self.showMs(configuration)
        var score = FitScore()
        for i in users { _ = try judge(data.users[i], configuration, label: label, showMs: showMs, into: &score, scratch: &scratch, miss: false) }
        return score
    }

    /// Every user, in row order, scored apart on fit and held-out users, with the first
    /// disagreeing users (by row, either set): a finalist's scoring.
    public func finalScore(_ configuration: RunConfiguration, label: String,
                           scratch: inout Scratch) throws(ReplayFailure) -> (fit: FitScore, test: FitScore, misses: [FitMiss]) {
        let showMs = self.showMs(configuration)
        var fit = FitScore(), test = FitScore()
        var misses: [FitMiss] = []
        for (i, user) in data.users.enumerated() {
            let wanted = misses.count < FitMiss.named
            let miss = data.isTest[i] ? try judge(user, configuration, label: label, showMs: showMs, into: &test, scratch: &scratch, miss: wanted)
                : try judge(user, configuration, label: label, showMs: showMs, into: &fit, scratch: &scratch, miss: wanted)
            if let miss { misses.append(miss) }
        }
        return (fit, test, misses)
    }

    /// Each popup's show animation under `configuration` (its own, else the option): production's
    /// answer times count from the end of it.
    func showMs(_ configuration: RunConfiguration) -> [Int] {
        let option = configuration.options.integerIfSet("showMs") ?? 0
        return data.catalog.popups.map { $0.showMs ?? option }
    }

    /// Runs one user and adds it to `score`; where it parts from production, when `miss`.
    func judge(_ user: FitData.User, _ configuration: RunConfiguration, label: String, showMs: [Int], into score: inout FitScore,
               scratch: inout Scratch, miss: Bool) throws(ReplayFailure) -> FitMiss? {
        var scenario = user.scenario
        user.answers.apply(to: &scenario.popups, showMs: showMs, catalog: data.catalog.popups)
        score.users += 1
        score.shows += user.productionScreen.shows.count
        let result: RunResult
        do {
            result = try scratch.runner.run(scenario, options: configuration.options, limits: Replayer.limits(limits, rows: user.rows))
        } catch {
            guard error.settles == false else { throw ReplayFailure(user: user.ref, column: label, error: error) }
            score.unsettled += 1
            return miss ? FitMiss(user: user.ref, index: 1, production: nil, model: nil, unsettled: true) : nil
        }
        scratch.showTimes.read(result)
        let shows = scratch.showTimes.shows
        score.shows += shows.count
        if user.productionScreen.shown(as: scratch.showTimes) {
            score.agreeing += 1
            if user.productionScreen.keptBy(scratch.showTimes, tolerance: Replayer.tolerance) { score.timed += 1 }
            score.matched += shows.count
            return nil
        }
        score.matched += Self.common(scratch.showTimes, user.productionScreen, popups: data.catalog.popups.count, counts: &scratch.counts)
        return miss ? self.miss(user, shows) : nil
    }

    /// Shows both sides have, popup by popup.
    /// Read in place, in `counts`' storage: a list made per user and candidate cost an
    /// allocation on fit's hot path.
    static func common(_ run: ShowTimes, _ production: ProductionScreen, popups: Int, counts: inout [Int]) -> Int {
        counts.refill(0, count: popups)
        for s in run.shows where Int(s.popup.index) < popups { counts[Int(s.popup.index)] += 1 }
        var n = 0
        for s in production.shows where Int(s.popup) < popups && counts[Int(s.popup)] > 0 {
            counts[Int(s.popup)] -= 1
            n += 1
        }
        return n
    }

    func miss(_ user: FitData.User, _ shows: [ShowTimes.Show]) -> FitMiss {
        let production = user.productionScreen.popups
        var k = 0
        while k < shows.count, k < production.count, shows[k].popup == production[k] { k += 1 }
        let names = data.catalog.popups
        func show(_ list: [PopupID], _ t: [Int]) -> FitMiss.Show? {
            k < list.count && Int(list[k].index) < names.count ? FitMiss.Show(popup: names[Int(list[k].index)].name, ms: t[k]) : nil
        }
        return FitMiss(user: user.ref, index: k + 1, production: show(production, user.productionScreen.starts),
                       model: show(shows.map(\.popup), shows.map(\.start)))
    }
}
