import PopsimCore

/// A plug-in's failure in words (docs/plugin-protocol.md, "Failures"): the problem, then the line
/// it sent and the line it was answering, each cut to 300 bytes; a process's stderr lines stay
/// below the first line.
public enum PluginFailureText {
    public static func text(_ f: PluginFailure) -> String {
        var first = words(f.problem)
        var below = ""
        if let newline = first.firstIndex(of: "\n") {
            below = String(first[newline...])
            first = String(first[..<newline])
        }
        if let reply = f.reply { first += ": " + shown(reply) }
        if let line = f.answering { first += " (answering: " + shown(line) + ")" }
        return first + below
    }

    /// A line for a message: at most 300 bytes of it (a `start` line lists every popup).
    static func shown(_ line: [UInt8]) -> String {
        String(decoding: line.prefix(300), as: UTF8.self) + (line.count > 300 ? "…" : "")
    }

    static func words(_ p: PluginProblem) -> String {
        switch p {
        case .process(let what): return what
        case .notJSON(let line, let detail): return "\(name(line)) is not JSON (\(detail))"
        case .notAnObject(let line): return "\(name(line)) is not a JSON object"
        case .replyFieldNotInteger(let key): return "its reply's \"\(key)\" is not an integer"
        case .replyFieldNotArray(let key): return "its reply's \"\(key)\" is not an array"
        case .unknownReplyKey(let key): return "its reply has an unknown key \(JSONValue.quoted(key))"
        case .decisionShape: return "a decision is not a JSON object with its verb first"
        case .unknownDecision(let verb, let known):
            return "unknown decision \(JSONValue.quoted(verb)) (expected one of \(known.joined(separator: ", ")))"
        case .unknownDecisionKey(let verb, let key): return "decision \(verb) has an unknown key \(JSONValue.quoted(key))"
        case .startTimerIncomplete: return "decision startTimer needs a delay and a \"token\""
        case .notAPopupName(let verb, let got): return "\(verb): expected a popup name, got \(got)"
        case .noSuchPopup(let verb, let name): return "\(verb): no popup \(JSONValue.quoted(name)) in the scenario"
        case .notANonNegativeInteger(let key, let got): return "\(key): expected an integer >= 0, got \(got)"
        case .missingReason(let verb): return "decision \(verb) needs a \"reason\""
        case .unknownReason(let verb, let got): return "decision \(verb): unknown reason \(got) (see docs/plugin-protocol.md)"
        case .notConnected: return "no plug-in is connected"
        case .decidedAtStart: return "it decided something in reply to start, before anything happened"
        case .outOfStep(let echoed, let expected):
            return "its reply answers line \(echoed), not \(expected): replies are out of step (one line per message)"
        case .tooManyTimers(let limit): return "it has more than \(limit) timers waiting (a startTimer in reply to every timer, without end?)"
        case .noPendingAtFinished: return "its reply to finished has no \"pending\" (the popups still waiting, [] for none)"
        case .pendingBeforeFinished: return "it sent \"pending\" before \"finished\""
        case .brokeRule(let decision): return "it \(decision)"
        case .unknownHandshakeKey(let key): return "its handshake has an unknown key \(JSONValue.quoted(key))"
        case .noProtocolVersion(let version): return "its handshake lacks \"popsimPlugin\": \(version) (the protocol version)"
        case .otherProtocolVersion(let version, let speaks): return "it speaks protocol version \(version); this popsim speaks \(speaks)"
        case .handshakeLacks(let key): return "its handshake lacks \"\(key)\""
        case .handshakeField(let key, let expected, let got): return "handshake \"\(key)\": expected \(words(expected)), got \(got)"
        case .optionDeclaredTwice(let name): return "handshake \"options\": \(JSONValue.quoted(name)) is declared twice"
        case .optionNotAnObject(let got): return "handshake option: expected an object, got \(got)"
        case .unknownOptionKey(let key): return "handshake option: unknown key \(JSONValue.quoted(key))"
        case .optionRule(let name, let rule): return "handshake option \(JSONValue.quoted(name)): " + words(rule)
        }
    }

    static func name(_ line: PluginProblem.Line) -> String { line == .reply ? "its reply" : "its handshake" }

    static func words(_ e: PluginProblem.Expected) -> String {
        switch e {
        case .string: return "a string"
        case .array: return "an array"
        case .bool: return "true or false"
        case .oneOf(let words): return "one of " + words.joined(separator: ", ")
        case .someOf(let words): return "some of " + words.joined(separator: ", ")
        }
    }

    static func words(_ rule: PluginProblem.OptionRule) -> String {
        switch rule {
        case .defaultNotAChoice: return "its default must be one of its choices"
        case .minimumNotAnInteger: return "\"minimum\" must be an integer"
        case .defaultBelowMinimum(let minimum): return "expected an integer \"default\" >= its minimum \(minimum)"
        case .negativeAnimation: return "an animation time cannot be negative"
        }
    }
}
