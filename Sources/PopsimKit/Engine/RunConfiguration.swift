/// Which strategy runs a scenario and with which options: defaults, then the file, then the
/// command line (design.md §2: "the command line can override both").
///
/// Contract: the file's `options` belong to the file's `strategy`. Options every strategy has
/// (`showMs`, `hideMs`, `navMs`) apply to whichever strategy runs; the others apply only when the
/// file's strategy runs, so `--strategy` can switch strategies without editing the file.
/// An option the chosen strategy does not have is an error, never silently ignored.
public struct RunConfiguration: Sendable {
    public var entry: StrategyEntry
    public var options: ResolvedOptions

    static let shared: Set<String> = ["showMs", "hideMs", "navMs"]

    /// Resolves the strategy and options; `overrides` are `name=value` texts from the command line.
    /// Throws `UsageError` for the command line, `LoadErrors` for what only this strategy rejects.
    public static func resolve(_ scenario: Scenario, strategy: String?, overrides: [String]) throws -> RunConfiguration {
        guard let name = strategy ?? scenario.strategy else {
            throw UsageError("\(scenario.file): no strategy: set \"strategy\" in the file or pass --strategy")
        }
        guard let entry = StrategyRegistry.entry(named: name) else {
            throw UsageError.unknownStrategy(name)
        }
        var settings = entry.options.map { OptionSetting(name: $0.name, value: $0.defaultValue) }
        let fromFile = scenario.strategy == entry.name
        for setting in scenario.options where fromFile || shared.contains(setting.name) {
            if let i = settings.firstIndex(where: { $0.name == setting.name }) { settings[i].value = setting.value }
        }
        for text in overrides {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError("--option: expected name=value, got \(JSONValue.quoted(text))")
            }
            guard let spec = entry.option(named: parts[0]) else {
                let names = entry.options.map(\.name)
                throw UsageError("--option: \(LoadProblem.unknownOption(parts[0], strategy: entry.name, known: names, suggestion: Suggestion.closest(parts[0], among: names)).message)")
            }
            guard let value = spec.parse(parts[1]) else {
                let note = spec.rejectionNote(parts[1]).map { " (\($0))" } ?? ""
                throw UsageError("--option \(spec.name): expected \(spec.allowedDescription), got \(JSONValue.quoted(parts[1]))\(note)")
            }
            if let i = settings.firstIndex(where: { $0.name == spec.name }) { settings[i].value = value }
        }
        let problems = entry.validate(scenario)
        if !problems.isEmpty { throw LoadErrors(problems) }
        return RunConfiguration(entry: entry, options: ResolvedOptions(settings: settings))
    }

    public func run(_ scenario: Scenario, limits: RunLimits = RunLimits()) throws(RunError) -> RunResult {
        try entry.run(scenario, options: options, limits: limits)
    }
}

/// A command-line mistake: one line on stderr and exit code 2.
public struct UsageError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    static func unknownStrategy(_ name: String) -> UsageError {
        UsageError("--strategy: " + LoadProblem.unknownStrategy(
            name, known: StrategyRegistry.names, suggestion: Suggestion.closest(name, among: StrategyRegistry.names)).message)
    }
}
