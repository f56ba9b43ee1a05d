import PopsimCore
import PopsimReports

/// The pipeline as the commands use it: read a scenario file from disk, then load, resolve and
/// run it (`Pipeline`), every failure a `PopsimError`.
public enum ScenarioSource {
    public static func load(_ path: String, maxBytes: Int = FileIO.defaultMaxBytes) throws(PopsimError) -> Scenario {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: maxBytes)
        } catch {
            throw .input(LoadErrors([LoadError(file: path, location: nil, path: .root, problem: .unreadable(error.reason))]))
        }
        return try Pipeline.load(bytes, file: path)
    }

    /// Reads, loads and runs `path`; `overrides` are the command line's `name=value` texts.
    public static func run(_ path: String, strategy: String?, overrides: [String], limits: RunLimits,
                           maxBytes: Int = FileIO.defaultMaxBytes, strategies: StrategySet = .builtIn) throws(PopsimError) -> RunResult {
        let scenario = try load(path, maxBytes: maxBytes)
        return try Pipeline.run(scenario, strategy: strategy, overrides: OptionOverride.parseAll(overrides), limits: limits,
                                strategies: strategies)
    }

    /// The expected timeline of `scenario` under `strategy`: beside it, `<name>.<strategy>.timeline`.
    public static func goldenPath(for scenarioPath: String, strategy: String) -> String {
        let stem = scenarioPath.hasSuffix(".json") ? String(scenarioPath.dropLast(5)) : scenarioPath
        return stem + "." + strategy + ".timeline"
    }
}
