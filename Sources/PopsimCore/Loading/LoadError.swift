/// One problem with a scenario file, with the place it was found (convention 6: errors are data).
///
/// Rendered once, by `line`, as `file:line:col: path: message`; the path is left out at the top
/// level and the location when the file could not be read at all.
public struct LoadError: Error, Sendable, Equatable {
    public var file: String
    public var location: SourceLocation?
    public var path: JSONPath
    public var problem: LoadProblem

    public init(file: String, location: SourceLocation?, path: JSONPath, problem: LoadProblem) {
        self.file = file
        self.location = location
        self.path = path
        self.problem = problem
    }

    /// The one-line message the user sees.
    public var line: String {
        var out = file
        if let location { out += ":\(location)" }
        let path = path.description
        if !path.isEmpty { out += ": " + path }
        return out + ": " + problem.message
    }
}

/// Every error a scenario file can have; each case renders its own message.
public enum LoadProblem: Sendable, Equatable {
    /// The file is not JSON.
    case syntax(String)
    /// A value of the wrong type or out of range: `expected an integer, got "soon"`.
    case expected(String, got: String)
    /// A word out of a fixed list: `expected one of await, discard; got "later"`.
    case expectedOneOf([String], got: String, suggestion: String?, note: String? = nil)
    case unknownKey(String, suggestion: String?)
    case duplicateKey(String)
    case missingKey(String, what: String)
    case unknownPopup(String, suggestion: String?)
    /// A `then` key that nothing ever presses.
    case unknownButton(String, popup: String, pressed: [String], suggestion: String?)
    case unknownStrategy(String, known: [String], suggestion: String?)
    case unknownOption(String, strategy: String, known: [String], suggestion: String?)
    case unknownState(String, suggestion: String?)
    case unsupportedVersion(Int)
    case badName(String, rule: String)
    case condition(String)
    case actionCount([String])
    case misplaced(String, hint: String)
    /// The file could not be read: missing, a directory, unreadable.
    case unreadable(String)
    /// Errors beyond the first thousand, counted but not shown.
    case moreErrors(Int)

    public var message: String {
        switch self {
        case .syntax(let m): return m
        case .expected(let what, let got): return "expected \(what), got \(got)"
        case .expectedOneOf(let words, let got, let suggestion, let note):
            return "expected one of \(words.joined(separator: ", ")); got \(got)" + Self.hint(suggestion)
                + (note.map { " (\($0))" } ?? "")
        case .unknownKey(let key, let suggestion):
            return "unknown key \(JSONValue.quoted(key))" + Self.hint(suggestion)
        case .duplicateKey(let key): return "duplicate key \(JSONValue.quoted(key))"
        case .missingKey(let key, let what): return "missing key '\(key)' (\(what))"
        case .unknownPopup(let id, let suggestion):
            return "unknown popup \(JSONValue.quoted(id))" + Self.hint(suggestion)
        case .unknownButton(let button, let popup, let pressed, let suggestion):
            return "no button \(JSONValue.quoted(button)) of '\(popup)' is ever pressed (pressed: \(pressed.joined(separator: ", ")))"
                + Self.hint(suggestion)
        case .unknownStrategy(let name, let known, let suggestion):
            return "unknown strategy \(JSONValue.quoted(name))"
                + (suggestion.map(Self.hint) ?? " (known: \(known.joined(separator: ", ")))")
        case .unknownOption(let name, let strategy, let known, let suggestion):
            return "\(strategy) has no option \(JSONValue.quoted(name))"
                + (suggestion.map(Self.hint) ?? " (its options: \(known.joined(separator: ", ")))")
        case .unknownState(let name, let suggestion):
            return "unknown state name \(JSONValue.quoted(name)) (declare it in \"state\")" + Self.hint(suggestion)
        case .unsupportedVersion(let v):
            return "unsupported format version \(v); the highest supported is 1"
        case .badName(let name, let rule): return "\(JSONValue.quoted(name)) is not a valid name: \(rule)"
        case .condition(let m): return m
        case .actionCount(let found):
            if found.isEmpty {
                return "expected exactly one action (\(ScenarioLoader.actionKeys.joined(separator: ", "))), got none"
            }
            return "expected exactly one action, got " + found.map { "'\($0)'" }.joined(separator: " and ")
        case .misplaced(let key, let hint): return "'\(key)' is not allowed here: \(hint)"
        case .unreadable(let reason): return reason
        case .moreErrors(let n): return "\(n) more error\(n == 1 ? "" : "s") not shown (the first \(ScenarioLoader.maxErrors) are above)"
        }
    }

    static func hint(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}

/// All the problems of one file, in file order.
public struct LoadErrors: Error, Sendable, Equatable {
    public var errors: [LoadError]

    public init(_ errors: [LoadError]) { self.errors = errors }
}
