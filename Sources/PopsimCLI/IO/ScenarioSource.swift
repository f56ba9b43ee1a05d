import PopsimCore
import PopsimReports

/// The pipeline as the commands use it: read a scenario file from disk, then load, resolve and
/// run it (`Pipeline`), every failure a `PopsimError`.
public enum ScenarioSource {
    public static func load(_ path: String, maxBytes: Int = FileIO.defaultMaxBytes) throws(PopsimError) -> Scenario {
        var strategies = StrategySet.builtIn
        return try load(path, maxBytes: maxBytes, strategies: &strategies)
    }

    /// Loads `path` and what it names beside it, adding both to `strategies`: a plug-in
    /// (`"strategy": "exec:PATH"`, its handshake read now) and a policy file (`"policy"`), each
    /// relative to the scenario's folder. A policy file or a plug-in of the same spelling given
    /// on the command line wins.
    /// `read`: shown the file's bytes (explore digests them: standard input cannot be read twice).
    public static func load(_ path: String, maxBytes: Int = FileIO.defaultMaxBytes,
                            strategies: inout StrategySet, read: ((FileContents) -> Void)? = nil) throws(PopsimError) -> Scenario {
        let bytes: FileContents
        do {
            bytes = try FileIO.contents(path, maxBytes: maxBytes)
        } catch {
            throw .input(LoadErrors([LoadError(file: path, location: nil, path: .root, problem: .unreadable(error.reason))]))
        }
        read?(bytes)
        var catalog = StrategyRegistry.catalog
        catalog.entries += strategies.extra.map { ($0.name, $0.options) }
        var scenario: Scenario
        switch bytes.withBytes({ ScenarioLoader.load($0, file: path, catalog: catalog) }) {
        case .success(let loaded):
            scenario = loaded
        case .failure(let errors):
            // A plug-in the scenario names: started (relative to the scenario), then loaded again
            // with its options known.
            guard let name = unknownPlugin(in: errors) else { throw .input(errors) }
            let entry = try StrategyArguments.plugin(name, path: besideScenario(path, String(name.dropFirst(StrategySet.execPrefix.count))),
                                                     timeoutMs: strategies.pluginTimeoutMs, perRun: strategies.pluginPerRun)
            strategies.extra.append(entry)
            catalog.entries.append((entry.name, entry.options))
            switch bytes.withBytes({ ScenarioLoader.load($0, file: path, catalog: catalog) }) {
            case .success(let loaded): scenario = loaded
            case .failure(let errors): throw .input(errors)
            }
        }
        // The scenario's own policy file, unless the command line gave one.
        if let policy = scenario.policyFile, !strategies.builds(ScenarioLoader.policyStrategy) {
            strategies.add(try PolicyFile.entry(besideScenario(path, policy), maxBytes: maxBytes))
        }
        return scenario
    }

    /// The `exec:` strategy a load failed on for want of its handshake.
    static func unknownPlugin(in errors: LoadErrors) -> String? {
        for error in errors.errors {
            if case .unknownStrategy(let name, _, _) = error.problem, name.hasPrefix(StrategySet.execPrefix),
               name.count > StrategySet.execPrefix.count {
                return name
            }
        }
        return nil
    }

    /// `relative` as written in `scenarioPath`, from the working folder: joined to the scenario's
    /// folder unless absolute.
    public static func besideScenario(_ scenarioPath: String, _ relative: String) -> String {
        guard !relative.hasPrefix("/"), let slash = scenarioPath.lastIndex(of: "/") else { return relative }
        return String(scenarioPath[...slash]) + relative
    }

    /// Reads, loads and runs `path`; `overrides` are the command line's `name=value` texts.
    public static func run(_ path: String, strategy: String?, overrides: [String], limits: RunLimits,
                           maxBytes: Int = FileIO.defaultMaxBytes, strategies: StrategySet = .builtIn) throws(PopsimError) -> RunResult {
        var strategies = strategies
        let scenario = try load(path, maxBytes: maxBytes, strategies: &strategies)
        return try Pipeline.run(scenario, strategy: strategy, overrides: OptionOverride.parseAll(overrides), limits: limits,
                                strategies: strategies)
    }

    /// The expected timeline of `scenario` under `strategy`: beside it, `<name>.<strategy>.timeline`.
    public static func goldenPath(for scenarioPath: String, strategy: String) -> String {
        let stem = scenarioPath.hasSuffix(".json") ? String(scenarioPath.dropLast(5)) : scenarioPath
        return stem + "." + strategy + ".timeline"
    }
}
