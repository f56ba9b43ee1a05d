/// Which strategy runs a scenario and with which options: defaults (an entry's `baseSettings` in
/// their place: a policy file's rules), then the file, then the caller's overrides (design.md §2: the caller can override both).
///
/// Contract: the file's `options` belong to the file's `strategy`. Options every strategy has
/// (`showMs`, `hideMs`, `navMs`) apply to whichever strategy runs; the others apply only when the
/// file's strategy runs, so another strategy can be chosen without editing the file.
/// An option the chosen strategy does not have is an error, never silently ignored.
public struct RunConfiguration: Sendable {
    public var entry: StrategyEntry
    public var options: ResolvedOptions

    /// Resolves the strategy and options. Throws `.configuration` for what the caller chose,
    /// `.input` for what only this strategy rejects in the file.
    public static func resolve(_ scenario: Scenario, strategy: String?, overrides: [OptionOverride],
                               strategies: StrategySet = .builtIn) throws(PopsimError) -> RunConfiguration {
        guard let name = strategy ?? scenario.strategy else {
            throw .configuration(.noStrategy(file: scenario.file))
        }
        guard let entry = strategies.entry(named: name) else {
            throw .configuration(.unknownStrategy(name))
        }
        var settings = ResolvedOptions.defaults(of: entry.options).settings
        for setting in entry.baseSettings {
            if let i = settings.firstIndex(where: { $0.name == setting.name }) { settings[i].value = setting.value }
        }
        let fromFile = scenario.strategy == entry.name
        for setting in scenario.options where fromFile || OptionSpec.shared.contains(setting.name) {
            if let i = settings.firstIndex(where: { $0.name == setting.name }) { settings[i].value = setting.value }
        }
        for override in overrides {
            // `caps+=RULES`: joined to the caps set so far (a policy's own, a swept scope's).
            let adding = override.name.hasSuffix("+")
            let name = adding ? String(override.name.dropLast()) : override.name
            guard let spec = entry.option(named: name) else {
                throw .configuration(.unknownOption(override.name, strategy: entry.name, known: entry.options.map(\.name)))
            }
            guard var value = spec.parse(override.value) else {
                throw .configuration(.badOptionValue(option: spec.name, expected: spec.allowedDescription,
                                                     got: override.value, note: spec.rejectionNote(override.value)))
            }
            guard let i = settings.firstIndex(where: { $0.name == spec.name }) else { continue }
            if adding {
                guard spec.kind == .caps, case .text(let base) = settings[i].value, case .text(let added) = value,
                      let old = ScopedCap.parseAll(base), let new = ScopedCap.parseAll(added) else {
                    throw .configuration(.badOptionValue(option: override.name, expected: "caps+=RULES, for an option of caps",
                                                         got: override.value, note: "only caps are added to; \(spec.name)= sets it"))
                }
                value = .text(ScopedCap.text(ScopedCap.joined(old, new)))
            }
            settings[i].value = value
        }
        try checkScopes(settings, of: entry, in: scenario)
        let problems = entry.validate(scenario)
        if !problems.isEmpty { throw .input(LoadErrors(problems)) }
        return RunConfiguration(entry: entry, options: ResolvedOptions(settings: settings))
    }

    /// Every scope a `caps` option names must be a popup, key or level of the scenario: a cap on
    /// nothing would check nothing.
    static func checkScopes(_ settings: [OptionSetting], of entry: StrategyEntry, in scenario: Scenario) throws(PopsimError) {
        for setting in settings {
            guard let spec = entry.option(named: setting.name), spec.kind == .caps, case .text(let text) = setting.value,
                  let caps = ScopedCap.parseAll(text) else { continue }
            for cap in caps where cap.members(in: scenario).isEmpty {
                throw .configuration(.badOptionValue(option: spec.name, expected: "scopes naming a popup, key:NAME or level:NAME of the scenario",
                                                     got: text, note: "no popup of it is \(cap.scopeText)"))
            }
        }
    }

    public func run(_ scenario: Scenario, limits: RunLimits = RunLimits()) throws(RunError) -> RunResult {
        try entry.run(scenario, options: options, limits: limits)
    }
}
