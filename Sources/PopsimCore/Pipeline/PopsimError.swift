/// Everything that can keep popsim from producing a report, as data (convention 6).
///
/// The core raises it and never words it for a user: the layer that talks to the user renders
/// it in one place (`ErrorReport` in PopsimCLI).
public enum PopsimError: Error, Sendable, Equatable {
    /// How popsim was asked to work cannot be carried out.
    case usage(String)
    /// Every located problem of one scenario file, in file order.
    case input(LoadErrors)
    /// The strategy or options chosen for a run, outside the file, do not fit it.
    case configuration(ConfigurationError)
    /// A run stopped before its end.
    case run(RunError)
    /// A user's run stopped a replay (a plug-in's failure, popsim's own bug; not a runaway).
    case replay(ReplayFailure)
    /// A file could not be read or written.
    case io(path: String, reason: String)
    /// A bug in popsim.
    case internalError(String)

    /// Whether it is popsim's own bug rather than a problem of its input.
    public var isInternal: Bool {
        switch self {
        case .run(let error): return error.isInternal
        case .replay(let failure): return failure.error.isInternal
        case .internalError: return true
        default: return false
        }
    }
}

/// A strategy or option chosen for a run (not in the file) that does not fit.
public enum ConfigurationError: Sendable, Equatable {
    /// Neither the file nor the caller names a strategy.
    case noStrategy(file: String)
    case unknownStrategy(String)
    /// An override `name=value` that is not of that shape.
    case malformedOverride(String)
    case unknownOption(String, strategy: String, known: [String])
    /// A value the option does not allow: `expected` in the words of an "expected …, got …".
    case badOptionValue(option: String, expected: String, got: String, note: String?)
}

/// One option value given outside the file, as text (`name=value` to the caller).
public struct OptionOverride: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Reads `name=value`; nil when it is not of that shape.
    public static func parse(_ text: String) -> OptionOverride? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        return OptionOverride(name: parts[0], value: parts[1])
    }

    /// Reads every `name=value`, or throws the first that is not of that shape.
    public static func parseAll(_ texts: [String]) throws(PopsimError) -> [OptionOverride] {
        var out: [OptionOverride] = []
        for text in texts {
            guard let o = parse(text) else { throw .configuration(.malformedOverride(text)) }
            out.append(o)
        }
        return out
    }
}
