/// One value of the app state: a string, an integer or a boolean.
///
/// Numbers are integers: nothing in popsim is floating point, so that every run gives the same
/// bytes on every machine. A state variable keeps the type of its initial value for the whole run;
/// the loader rejects a `set` that would change it, so conditions can be type-checked at load time.
public enum StateValue: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case boolean(Bool)

    public var type: StateType {
        switch self {
        case .string: return .string
        case .integer: return .integer
        case .boolean: return .boolean
        }
    }

    /// The value as a scenario would write it: `'home'`, `3`, `true`.
    public var description: String {
        switch self {
        case .string(let s): return "'\(s)'"
        case .integer(let n): return String(n)
        case .boolean(let b): return b ? "true" : "false"
        }
    }
}

/// The three types of state values.
public enum StateType: Sendable, CustomStringConvertible {
    case string, integer, boolean

    /// With its article, as error messages use it: "a string".
    public var description: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .boolean: return "a boolean"
        }
    }
}

/// A state variable, interned: its index in `StateSchema.names`.
public struct VariableID: Hashable, Sendable {
    public let index: Int
}

/// The declared state: every name a condition or a `set` may use, with its initial value.
public struct StateSchema: Sendable {
    public var names: [String] = []
    public var initial: [StateValue] = []

    public func lookup(_ name: String) -> VariableID? {
        names.firstIndex(of: name).map(VariableID.init(index:))
    }
}
