/// The one way from bytes to a run's result: load, resolve, run. `run`, `check`, `compare`,
/// `lint` and the fuzz harness all go through it, so they report the same errors the same way.
public enum Pipeline {
    /// Loads a scenario from the bytes of `file`.
    public static func load(_ bytes: [UInt8], file: String) throws(PopsimError) -> Scenario {
        switch ScenarioLoader.load(bytes, file: file, catalog: StrategyRegistry.catalog) {
        case .success(let scenario): return scenario
        case .failure(let errors): throw .input(errors)
        }
    }

    /// Resolves the strategy and options, then runs the scenario to its end.
    public static func run(_ scenario: Scenario, strategy: String? = nil, overrides: [OptionOverride] = [],
                           limits: RunLimits = RunLimits(), strategies: StrategySet = .builtIn) throws(PopsimError) -> RunResult {
        let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: overrides, strategies: strategies)
        do {
            return try configuration.run(scenario, limits: limits)
        } catch {
            throw .run(error)
        }
    }
}
