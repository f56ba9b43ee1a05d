/// A policy file (`--policy FILE.json`): the options of the `policy` strategy kept apart from any
/// scenario, so that one team's rules run against every scenario and in `compare`.
///
/// Contract: the file is one JSON object of `policy` options (the keys of a scenario's `options`
/// under `"strategy": "policy"`), plus an optional `description` string; the same strict, located
/// errors as a scenario's `options`, every problem reported at once.
extension ScenarioLoader {
    /// The strategy a policy file configures.
    public static let policyStrategy = "policy"

    public static func loadPolicy(_ bytes: [UInt8], file: String, catalog: StrategyCatalog) -> Result<[OptionSetting], LoadErrors> {
        let root: JSONValue
        switch parseRoot(bytes, file: file) {
        case .success(let value): root = value
        case .failure(let errors): return .failure(errors)
        }
        var loader = ScenarioLoader(file: file, catalog: catalog)
        loader.scenario.strategy = policyStrategy
        if case .object(let members) = root.kind, let description = members.first(where: { $0.key == "description" }) {
            _ = loader.string(description.value, JSONPath.root.appending("description"))
        }
        loader.loadOptions(root, at: .root, skipping: "description")
        return loader.finish().map(\.options)
    }
}
