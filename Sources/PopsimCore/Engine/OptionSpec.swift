/// One option a strategy accepts, with its allowed values and default (shown by `popsim strategies`).
public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        /// An integer no smaller than `minimum`.
        case integer(minimum: Int)
        /// One word out of a fixed list.
        case choice([String])
        /// Caps and pacing on scopes of popups, `SCOPE:MAX/WINDOW`, `SCOPE:gap=D`, `SCOPE:cooldown=D`, `;` between (`ScopedCap`); the empty text is none.
        case caps
    }

    public var name: String
    public var summary: String
    public var kind: Kind
    public var defaultValue: OptionValue
    /// Extra words for a rejected value (e.g. what the real library does with it), if any.
    public var rejectionNote: @Sendable (String) -> String?

    public init(name: String, summary: String, kind: Kind, defaultValue: OptionValue,
                rejectionNote: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.name = name
        self.summary = summary
        self.kind = kind
        self.defaultValue = defaultValue
        self.rejectionNote = rejectionNote
    }

    /// The present-animation time every strategy accepts; `default` is the strategy's own.
    public static func showMs(default value: Int) -> OptionSpec {
        OptionSpec(name: EngineOption.showMs.rawValue, summary: "present animation, ms (a popup's own showMs wins)",
                   kind: .integer(minimum: 0), defaultValue: .integer(value))
    }

    /// The dismiss-animation time every strategy accepts; `default` is the strategy's own.
    public static func hideMs(default value: Int) -> OptionSpec {
        OptionSpec(name: EngineOption.hideMs.rawValue, summary: "dismiss animation, ms (a popup's own hideMs wins)",
                   kind: .integer(minimum: 0), defaultValue: .integer(value))
    }

    /// The options every strategy has, which a file's `options` set whatever strategy runs.
    public static let shared: Set<String> = Set(EngineOption.shared.map(\.rawValue))

    /// The navigation transition time every strategy accepts (design.md §5a).
    public static let navMs = OptionSpec(name: EngineOption.navMs.rawValue, summary: "push/pop transition, ms",
                                         kind: .integer(minimum: 0), defaultValue: .integer(0))

    /// The display time of a popup that sets no `duration` of its own.
    public static func duration(default value: Int) -> OptionSpec {
        OptionSpec(name: EngineOption.duration.rawValue, summary: "display time of a popup without its own duration, ms",
                   kind: .integer(minimum: 1), defaultValue: .integer(value))
    }

    /// `duration` where 0 stands for "none" (a strategy whose popups stay until answered by default).
    public static func duration(default value: Int, minimum: Int, _ summary: String) -> OptionSpec {
        OptionSpec(name: EngineOption.duration.rawValue, summary: summary, kind: .integer(minimum: minimum), defaultValue: .integer(value))
    }

    /// An animation time of the strategy's own (`popMs`, `replaceMs`), in ms.
    public static func animation(_ name: String, _ summary: String, default value: Int) -> OptionSpec {
        OptionSpec(name: name, summary: summary, kind: .integer(minimum: 0), defaultValue: .integer(value))
    }

    /// How many popups may be on screen at once before the engine warns of an overlap.
    public static let slots = slots(default: 1, "popups that may be on screen at once")

    /// `slots` with the strategy's own default and words for it.
    public static func slots(default value: Int, _ summary: String) -> OptionSpec {
        OptionSpec(name: EngineOption.slots.rawValue, summary: summary, kind: .integer(minimum: 1), defaultValue: .integer(value))
    }

    /// The allowed values, for help and error messages: `one of fifo, lifo` / `an integer >= 0`.
    public var allowedDescription: String {
        switch kind {
        case .integer(let minimum): return "an integer >= \(minimum)"
        case .choice(let words): return "one of " + words.joined(separator: ", ")
        case .caps: return "rules like campaign:2/24h;campaign:gap=30s;key:promo:cooldown=1m (a popup, key:NAME or level:NAME; MAX shows per window, gap= or cooldown= a duration in ms, s, m, h or d)"
        }
    }

    /// Checks a value; returns the problem in the words of an "expected …, got …" message.
    public func validate(_ value: OptionValue) -> OptionValue? {
        switch (kind, value) {
        case (.integer(let minimum), .integer(let n)) where n >= minimum: return value
        case (.choice(let words), .text(let w)) where words.contains(w): return value
        case (.caps, .text(let t)) where ScopedCap.parseAll(t) != nil: return value
        default: return nil
        }
    }

    /// Reads a value given as text outside the file (an override).
    public func parse(_ text: String) -> OptionValue? {
        switch kind {
        case .integer: return Int(text).flatMap { validate(.integer($0)) }
        case .choice, .caps: return validate(.text(text))
        }
    }
}

/// A strategy's options with every value decided: defaults, then the file, then the caller's overrides.
public struct ResolvedOptions: Sendable, Equatable {
    /// In the strategy's declared order, which is also the order of the JSON report.
    public var settings: [OptionSetting] {
        didSet { engineValues = Self.engineValues(settings) }
    }

    /// The engine's options (`EngineOption`), by their order there, read once from `settings`:
    /// a replay resets its engine for every user, and finding each by name cost ~800
    /// instructions a user.
    private(set) var engineValues: [Int?]

    public init(settings: [OptionSetting]) {
        self.settings = settings
        engineValues = Self.engineValues(settings)
    }

    private static func engineValues(_ settings: [OptionSetting]) -> [Int?] {
        EngineOption.allCases.map { integer($0.rawValue, in: settings) }
    }

    /// The first integer `settings` give the option `name`, if any.
    private static func integer(_ name: String, in settings: [OptionSetting]) -> Int? {
        for s in settings where s.name == name {
            if case .integer(let n) = s.value { return n }
        }
        return nil
    }

    /// Every option of `specs` at its default.
    public static func defaults(of specs: [OptionSpec]) -> ResolvedOptions {
        ResolvedOptions(settings: specs.map { OptionSetting(name: $0.name, value: $0.defaultValue) })
    }

    public func integer(_ name: String) -> Int {
        integerIfSet(name) ?? 0
    }

    public func integerIfSet(_ name: String) -> Int? { Self.integer(name, in: settings) }

    public func text(_ name: String) -> String {
        for s in settings where s.name == name {
            if case .text(let t) = s.value { return t }
        }
        return ""
    }
}
