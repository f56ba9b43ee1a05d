/// The default number of variants `explore` runs a strategy, bounded by the work a scenario's
/// runs take (issue 66): 10,000 variants of a 5.5 KB scenario of 150 popups in any order and 70
/// `before` properties under every strategy took 34 s. An exploration given no `--budget` stays
/// near `work` units — a unit is a popup or an event of a run, once, and again for each property
/// judged on it — about 5 s of CPU on the 2-core machine it was measured on (93 million units a
/// second). Deterministic: the scenario and the strategies alone decide it, so every shard of an
/// exploration lowers it alike.
public enum ExploreBudget {
    public static let standard = 10_000
    public static let work = 500_000_000

    /// The variants a strategy runs by default for `scenario` under `strategies` strategies: the
    /// standard 10,000, or fewer (never below 1) when their runs would pass `work`.
    public static func variants(for scenario: Scenario, strategies: Int) -> Int {
        let size = (scenario.popups.count + scenario.events.count).times(1 + scenario.expectations.count).times(max(1, strategies))
        return max(1, min(standard, work / max(1, size)))
    }
}
