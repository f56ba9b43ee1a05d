/// What one thread keeps from one user's replay to the next: a runner per column (the engine's
/// buffers) and the buffers of the scenario, the answers and the counting. Not for two threads.
public struct ReplayScratch {
    var runners: [any ScenarioRunner]
    var animated: [Bool] = []
    var openSubjects: [Int] = []
    var requests = OpenRequests(subjects: 0)
    var screen = ScreenCount(subjects: 0)
    /// The run's shows: popups, times, and the time the user hid each (`ShowTimes.none`: not by
    /// the user).
    var showTimes = ShowTimes()
    var production = OpenRequests(subjects: 0)
    /// Production's run, made from the user's rows for a property only a run's lines judge
    /// (`Replayer.judgesOnRuns`), in storage kept from user to user.
    var productionRun = ProductionRun()
    var productionResult: RunResult
    /// Production's shows, their times and answers (`ReplayTally.addProduction`).
    var answers = ProductionAnswers()
    /// The user's scenario, made in place (`Replayer.script`) in storage kept from user to user.
    var scenario: Scenario
    /// Per group, whether the user's run requested one of its popups; the popups it requested.
    var touched: [Bool] = []
    var requested = RequestedGroups()
    /// Per property of the catalog: whether the run fails it, for the `wait X <= N` ones
    /// (`ReplayTally.add`).
    var waitFails: [Bool] = []
    /// Per property of the catalog: whether the column's run fails it (`Replayer.replay`; an
    /// array made per user and column cost ~500 instructions).
    var failed: [Bool] = []

    /// Buffers for `replayer`'s users, with a runner per column.
    public init(for replayer: Replayer) {
        runners = replayer.makeRunners()
        scenario = replayer.template
        productionResult = RunResult(scenario: replayer.template, strategy: "production", options: ResolvedOptions(settings: []),
                                     timeline: Timeline(subjects: replayer.catalog.popups.map(\.name)), pending: [], end: 0)
    }
}
