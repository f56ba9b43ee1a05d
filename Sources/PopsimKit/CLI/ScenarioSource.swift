/// Reading a scenario file from disk into a `Scenario`, or the error lines that say why not.
public enum ScenarioSource {
    public static func load(_ path: String, maxBytes: Int = FileIO.defaultMaxBytes) -> Result<Scenario, LoadErrors> {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: maxBytes)
        } catch {
            return .failure(LoadErrors([LoadError(file: path, location: nil, path: .root, problem: .unreadable(error.reason))]))
        }
        return ScenarioLoader.load(bytes, file: path)
    }

    /// The expected timeline of `scenario` under `strategy`: beside it, `<name>.<strategy>.timeline`.
    public static func goldenPath(for scenarioPath: String, strategy: String) -> String {
        let stem = scenarioPath.hasSuffix(".json") ? String(scenarioPath.dropLast(5)) : scenarioPath
        return stem + "." + strategy + ".timeline"
    }
}
