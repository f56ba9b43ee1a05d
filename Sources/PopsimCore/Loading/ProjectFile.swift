/// A repository's list of its own plug-ins and policy files (`.popsim.json`, as linters keep a
/// configuration at the root), so that `check` can run again what produced a golden named
/// `<scenario>.exec-<stem>.timeline` or `<scenario>.policy-<stem>.timeline`.
///
/// Contract: one JSON object, `{"popsimProject": 1, "plugins": [PATH…], "policies": [PATH…]}`
/// plus an optional `description`; paths are relative to the project file's folder; two entries
/// of a list with the same file stem are an error (a golden names one by its stem). Every problem
/// is reported at once, located, like a scenario's.
public struct ProjectFile: Sendable, Equatable {
    /// The name `check` looks for, in the scenario's folder and each folder above it.
    public static let fileName = ".popsim.json"

    public var file: String
    /// Executables, as written (relative to the project file's folder).
    public var plugins: [String] = [] { didSet { pluginByStem = Self.byStem(plugins) } }
    /// Policy files, as written.
    public var policies: [String] = [] { didSet { policyByStem = Self.byStem(policies) } }
    /// Each list by file stem: a golden's stem is looked up once, not against every entry.
    private var pluginByStem: [String: String] = [:]
    private var policyByStem: [String: String] = [:]

    public init(file: String, plugins: [String] = [], policies: [String] = []) {
        self.file = file
        self.plugins = plugins
        self.policies = policies
        pluginByStem = Self.byStem(plugins)
        policyByStem = Self.byStem(policies)
    }

    static func byStem(_ paths: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for p in paths where out[StrategySet.stem(p)] == nil { out[StrategySet.stem(p)] = p }
        return out
    }

    /// The plug-in whose file stem is `stem`, as written.
    public func plugin(stem: String) -> String? { pluginByStem[stem] }

    /// The policy file whose file stem is `stem`, as written.
    public func policy(stem: String) -> String? { policyByStem[stem] }
}

extension ScenarioLoader {
    public static func loadProject(_ bytes: [UInt8], file: String) -> Result<ProjectFile, LoadErrors> {
        let root: JSONValue
        switch parseRoot(bytes, file: file) {
        case .success(let value): root = value
        case .failure(let errors): return .failure(errors)
        }
        var loader = ScenarioLoader(file: file, catalog: StrategyCatalog([]))
        var project = ProjectFile(file: file)
        if let fields = loader.fields(of: root, .root, allowed: ["popsimProject", "description", "plugins", "policies"]) {
            if let v = fields["popsimProject"] {
                if case .number(let n) = v.kind, n.integer == 1 {} else {
                    loader.report(.expected("the project format version 1", got: v.errorDescription), at: v.location, .root.appending("popsimProject"))
                }
            } else {
                loader.report(.missingKey("popsimProject", what: "the project format version, 1"), at: root.location, .root)
            }
            if let v = fields["description"] { _ = loader.string(v, .root.appending("description")) }
            if let v = fields["plugins"] { project.plugins = loader.paths(v, .root.appending("plugins")) }
            if let v = fields["policies"] { project.policies = loader.paths(v, .root.appending("policies")) }
        }
        if loader.errors.isEmpty { return .success(project) }
        return loader.finish().map { _ in project }
    }

    /// An array of non-empty path strings whose file stems differ.
    mutating func paths(_ v: JSONValue, _ path: JSONPath) -> [String] {
        guard case .array(let items) = v.kind else {
            report(.expected("an array of paths", got: v.errorDescription), at: v.location, path)
            return []
        }
        var out: [String] = []
        // Stems seen, to the entry that has each: one look per entry (a list was searched for
        // every entry: 4,000 entries took 15 s; issue 41).
        var stems: [String: String] = [:]
        for (i, item) in items.enumerated() {
            guard let text = string(item, path.appending(i), nonEmpty: true) else { continue }
            let stem = StrategySet.stem(text)
            if let same = stems[stem] {
                report(.expected("a file stem no other entry has (a golden names it by its stem)",
                                 got: "\(JSONValue.quoted(text)), as \(JSONValue.quoted(same))"), at: item.location, path.appending(i))
                continue
            }
            stems[stem] = text
            out.append(text)
        }
        return out
    }
}
