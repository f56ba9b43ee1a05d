/// The strategies a scenario file may name, with the options each accepts: what the loader needs
/// to know of them, handed in (the registry's `StrategyRegistry.catalog`) so that loading does
/// not reach up to the strategies.
public struct StrategyCatalog: Sendable {
    public var entries: [(name: String, options: [OptionSpec])]

    public init(_ entries: [(name: String, options: [OptionSpec])]) { self.entries = entries }

    public var names: [String] { entries.map(\.name) }

    /// The options of `name`, or nil when no such strategy exists.
    public func options(of name: String) -> [OptionSpec]? {
        entries.first { $0.name == name }?.options
    }
}
