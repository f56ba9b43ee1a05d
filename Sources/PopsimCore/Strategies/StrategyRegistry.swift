/// Every strategy popsim knows, alphabetically by name: the one list `popsim strategies` prints.
///
/// Adding a strategy: one file in `Strategies/` and one line here (a test checks names are unique
/// and sorted).
public enum StrategyRegistry {
    public static let all: [StrategyEntry] = [
        StrategyEntry(AdwToastStrategy.self),
        StrategyEntry(AndroidToastStrategy.self),
        StrategyEntry(BrazeIAMStrategy.self),
        StrategyEntry(EntryKitStrategy.self),
        StrategyEntry(FGStrategy.self),
        StrategyEntry(JCFIFOStrategy.self),
        StrategyEntry(JCLIFOStrategy.self),
        StrategyEntry(KeyedStrategy.self),
        StrategyEntry(MDCSnackbarStrategy.self),
        StrategyEntry(NotistackStrategy.self),
        StrategyEntry(PolicyStrategy.self),
        StrategyEntry(SonnerStrategy.self),
        StrategyEntry(SSPStrategy.self),
        StrategyEntry(SwiftMessagesStrategy.self),
    ]

    public static var names: [String] { all.map(\.name) }

    /// What a scenario file may name: every strategy with its options.
    public static let catalog = StrategyCatalog(all.map { ($0.name, $0.options) })

    public static func entry(named name: String) -> StrategyEntry? {
        all.first { $0.name == name }
    }
}

/// A registered strategy, with a runner that keeps the engine generic over its type.
public struct StrategyEntry: Sendable {
    public let name: String
    public let summary: String
    public let options: [OptionSpec]
    public let modelledFields: [PopupField]
    public let modelledActions: [ActionKind]
    /// What names its goldens (`<scenario>.<label>.timeline`): its name, unless it was built at
    /// run time (`exec-<stem>` for a plug-in, `policy-<stem>` under a policy file).
    public internal(set) var label: String
    /// Settings that stand in for its options' defaults (a policy file's rules).
    public internal(set) var baseSettings: [OptionSetting] = []
    /// The command-line words that bring it back when its name alone does not (` --policy FILE`),
    /// for `check`'s advice to record a golden.
    public internal(set) var arguments = ""
    /// The type's name, which is also its file's (`Strategies/<type>.swift`); computed when
    /// asked, as naming a type costs a runtime lookup.
    public var typeName: String { typeNamer() }
    let typeNamer: @Sendable () -> String
    let validator: @Sendable (Scenario) -> [LoadError]
    /// What it models under a run's options (`Strategy.modelled(under:)`).
    let modelledUnder: @Sendable (ResolvedOptions) -> (fields: [PopupField], actions: [ActionKind])
    let runner: @Sendable (Scenario, ResolvedOptions, RunLimits) throws(RunError) -> RunResult
    /// A runner that keeps the engine from run to run, when the strategy is built in.
    var reusable: (@Sendable () -> any ScenarioRunner)?
    /// `Strategy.showsOnlyWhenAsked` of a built-in one.
    public internal(set) var showsOnlyWhenAsked = false

    init(name: String, summary: String, options: [OptionSpec], modelledFields: [PopupField], modelledActions: [ActionKind],
         typeNamer: @escaping @Sendable () -> String,
         validator: @escaping @Sendable (Scenario) -> [LoadError],
         modelledUnder: (@Sendable (ResolvedOptions) -> (fields: [PopupField], actions: [ActionKind]))? = nil,
         runner: @escaping @Sendable (Scenario, ResolvedOptions, RunLimits) throws(RunError) -> RunResult) {
        self.name = name
        label = name
        self.summary = summary
        self.options = options
        self.modelledFields = modelledFields
        self.modelledActions = modelledActions
        self.typeNamer = typeNamer
        self.validator = validator
        self.modelledUnder = modelledUnder ?? { _ in (modelledFields, modelledActions) }
        self.runner = runner
    }

    init<S: Strategy>(_ type: S.Type) {
        self.init(name: S.name, summary: S.summary, options: S.options, modelledFields: S.modelledFields,
                  modelledActions: S.modelledActions, typeNamer: { String(describing: S.self) },
                  validator: { S.validate($0) },
                  modelledUnder: { S.modelled(under: $0) },
                  runner: { (scenario, options, limits) throws(RunError) -> RunResult in
                      var engine = Engine<S>(scenario: scenario, options: options, limits: limits)
                      return try engine.run()
                  })
        reusable = { EngineRunner(S.self) }
        showsOnlyWhenAsked = S.showsOnlyWhenAsked
    }

    /// Runs of this strategy one after another on one thread, keeping the engine's buffers.
    public func makeRunner() -> any ScenarioRunner { reusable?() ?? EntryRunner(self) }

    /// Runs `scenario` to its end with this strategy.
    public func run(_ scenario: Scenario, options: ResolvedOptions, limits: RunLimits = RunLimits()) throws(RunError) -> RunResult {
        try runner(scenario, options, limits)
    }

    /// The scenario's problems that only this strategy rejects.
    public func validate(_ scenario: Scenario) -> [LoadError] { validator(scenario) }

    /// The popup fields it does not model under `options`: lint reports them where a file sets them.
    public func ignoredFields(under options: ResolvedOptions) -> [PopupField] {
        let modelled = modelledUnder(options).fields
        return PopupField.strategyFields.filter { !modelled.contains($0) }
    }

    /// The script actions that reach it and that it does not model under `options`.
    public func ignoredActions(under options: ResolvedOptions) -> [ActionKind] {
        let modelled = modelledUnder(options).actions
        return ActionKind.allCases.filter { $0.reachesStrategy && !modelled.contains($0) }
    }

    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}

extension StrategyRegistry {
    /// The strategies a command was given, with `all` standing for every registered one, in
    /// registry order (`compare`, `explore`).
    public static func expandingAll(_ given: [String]) -> [String] {
        given.flatMap { $0 == "all" ? names : [$0] }
    }
}
