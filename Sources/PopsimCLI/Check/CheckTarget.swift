import PopsimCore
import PopsimReports

/// One timeline `check` compares for a scenario: a golden beside it, or the one its own strategy
/// should have, with what produces it again.
///
/// Contract: a golden's label says what produced it — a registry name, `exec-<stem>` (a plug-in)
/// or `policy-<stem>` (the `policy` strategy under a policy file). A label that nothing on the
/// command line, in the scenario or in the project file (`.popsim.json`) resolves is
/// `unresolved`: a failure with advice, never skipped.
public struct CheckTarget: Sendable, Equatable {
    public enum Producer: Sendable, Equatable {
        /// A strategy the run's `StrategySet` knows by this name (an entry built at run time, or
        /// the registry's).
        case strategy(String)
        /// The registry's strategy of this name, at its defaults (not an entry built at run time
        /// under the same name, such as `policy` under a policy file).
        case registry(String)
        /// A plug-in listed in the project file, to start: its path from the working folder.
        case projectPlugin(path: String)
        /// `policy` under a policy file the project file lists (its path from the working folder).
        case projectPolicy(path: String)
        /// What to tell the user.
        case unresolved(String)
    }

    public var label: String
    public var producer: Producer
}

extension Expectations {
    /// The labels of the goldens beside `scenarioPath` (`<stem>.<label>.timeline`): registry names
    /// in registry order, then the rest bytewise. A file that belongs to a longer scenario stem
    /// (`a.b.fg.timeline` beside `a.b.json`) is that scenario's, not this one's.
    static func goldenLabels(beside scenarioPath: String) -> [String] {
        let stem = scenarioPath.hasSuffix(".json") ? String(scenarioPath.dropLast(5)) : scenarioPath
        let slash = stem.lastIndex(of: "/")
        let folder = slash.map { String(stem[..<$0]) } ?? "."
        let base = slash.map { String(stem[stem.index(after: $0)...]) } ?? stem
        guard let names = try? FileIO.list(folder.isEmpty ? "/" : folder) else { return [] }
        let prefix = base + "."
        var labels: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".timeline") && name.count > prefix.count + 9 {
            let label = String(name.dropFirst(prefix.count).dropLast(9))
            if label.contains("."), belongsToLongerStem(label, base: base, names: names) { continue }
            labels.append(label)
        }
        let registry = StrategyRegistry.names.filter(labels.contains)
        return registry + labels.filter { !registry.contains($0) }
    }

    /// Whether `<base>.<label>.timeline` is the golden of a scenario `<base>.<part>….json`.
    static func belongsToLongerStem(_ label: String, base: String, names: [String]) -> Bool {
        let parts = label.split(separator: ".", omittingEmptySubsequences: false)
        for n in 1..<parts.count where names.contains(base + "." + parts[..<n].joined(separator: ".") + ".json") {
            return true
        }
        return false
    }

    /// What `check` compares for `scenario`: the `--strategy` names when given, else every golden
    /// beside it plus its own strategy's (first, when that golden is missing).
    static func targets(for scenario: Scenario, only: [String], strategies: StrategySet,
                        project: () -> Result<(ProjectFile, folder: String)?, PopsimError>) -> [CheckTarget] {
        if !only.isEmpty {
            return only.map { CheckTarget(label: strategies.goldenLabel($0), producer: .strategy($0)) }
        }
        var labels = goldenLabels(beside: scenario.file)
        if let own = scenario.strategy, !labels.contains(strategies.goldenLabel(own)) {
            labels.insert(strategies.goldenLabel(own), at: 0)
        }
        return labels.map { CheckTarget(label: $0, producer: producer(of: $0, scenario: scenario, strategies: strategies, project: project)) }
    }

    static func producer(of label: String, scenario: Scenario, strategies: StrategySet,
                         project: () -> Result<(ProjectFile, folder: String)?, PopsimError>) -> CheckTarget.Producer {
        let golden = ScenarioSource.goldenPath(for: scenario.file, strategy: label)
        if StrategyRegistry.entry(named: label) != nil { return .registry(label) }
        if let known = strategies.extra.first(where: { $0.label == label }) { return .strategy(known.name) }
        if let stem = label.dropPrefix("exec-") {
            return fromProject(project(), stem: stem, golden: golden, kind: .plugin) { .projectPlugin(path: $0) }
        }
        if let stem = label.dropPrefix("policy-") {
            return fromProject(project(), stem: stem, golden: golden, kind: .policy) { .projectPolicy(path: $0) }
        }
        let hint = Suggestion.closest(label, among: StrategyRegistry.names).map { " (did you mean '\($0)'?)" } ?? ""
        return .unresolved("\(golden) names no strategy '\(label)'\(hint): rename or remove it")
    }

    /// What a project file lists: plug-ins or policy files, and how the advice words each.
    enum Listed {
        case plugin, policy
        var what: String { self == .plugin ? "plug-in" : "policy file" }
        var key: String { self == .plugin ? "plugins" : "policies" }
        var flag: String { self == .plugin ? "--strategy exec:PATH" : "--policy FILE" }
    }

    /// The producer the project file lists under `stem` (its path from the working folder made
    /// into one by `make`), or why there is none.
    static func fromProject(_ found: Result<(ProjectFile, folder: String)?, PopsimError>, stem: String, golden: String,
                            kind: Listed, make: (String) -> CheckTarget.Producer) -> CheckTarget.Producer {
        let named = "\(golden) names \(kind.what) '\(stem)'"
        switch found {
        case .failure(let error):
            return .unresolved("\(named), but the project file cannot be read: \(firstLine(error))")
        case .success(let found?):
            let listed = kind == .plugin ? found.0.plugin(stem: stem) : found.0.policy(stem: stem)
            if let path = listed { return make(join(found.folder, path)) }
            return .unresolved("\(named), which \(found.0.file) does not list: add its path to \"\(kind.key)\" there, or pass \(kind.flag)")
        case .success(nil):
            return .unresolved("\(named), and no \(ProjectFile.fileName) lists it: list its path under \"\(kind.key)\" in a "
                + "\(ProjectFile.fileName) at the repository's root (docs/ci.md), or pass \(kind.flag)")
        }
    }

    static func firstLine(_ error: PopsimError) -> String {
        ErrorReport.lines(error, context: "check").first ?? "unreadable"
    }

    /// `path` from the working folder, given the project file's folder.
    static func join(_ folder: String, _ path: String) -> String {
        if path.hasPrefix("/") || folder == "." { return path }
        return folder + "/" + path
    }
}

extension String {
    /// The rest after `prefix`, when it starts with it and has more.
    func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) && count > prefix.count ? String(dropFirst(prefix.count)) : nil
    }
}
