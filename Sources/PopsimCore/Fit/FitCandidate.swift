/// One model `fit` scores: a strategy and the options it sets away from their defaults.
///
/// Contract: `settings` hold only non-default values, in the strategy's option order, so two
/// candidates that run the same are equal and have the same `label` — what replay's
/// `--strategy NAME:option=value,…` takes, so a candidate can be pasted into `replay`.
public struct FitCandidate: Sendable, Hashable {
    public struct Setting: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var strategy: String
    public private(set) var settings: [Setting]

    public init(strategy: String, settings: [Setting] = []) {
        self.strategy = strategy
        self.settings = settings
    }

    /// `strategy`, or `strategy:name=value,…`.
    public var label: String {
        settings.isEmpty ? strategy : strategy + ":" + settings.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    }

    public var overrides: [OptionOverride] { settings.map { OptionOverride(name: $0.name, value: $0.value) } }

    /// The value set for `name`, if set.
    public func value(_ name: String) -> String? { settings.first { $0.name == name }?.value }

    /// The same candidate with `name` at `value`: dropped when `value` is the default, kept in
    /// `order` (the strategy's option names) otherwise.
    public func with(_ name: String, _ value: String, default fallback: String, order: [String]) -> FitCandidate {
        var c = self
        c.settings.removeAll { $0.name == name }
        guard value != fallback else { return c }
        c.settings.append(Setting(name: name, value: value))
        c.settings.sort { (order.firstIndex(of: $0.name) ?? .max) < (order.firstIndex(of: $1.name) ?? .max) }
        return c
    }
}
