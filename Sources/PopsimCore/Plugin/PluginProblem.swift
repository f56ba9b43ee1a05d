/// Why a plug-in could not go on, as data; `PluginFailureText` (PopsimReports) words it, so the
/// core builds no sentences (docs/architecture.md).
public enum PluginProblem: Sendable, Equatable {
    /// Which of its lines: a reply or its handshake.
    public enum Line: Sendable, Equatable { case reply, handshake }

    /// What a handshake field should have been.
    public enum Expected: Sendable, Equatable {
        case string, array, bool
        case oneOf([String]), someOf([String])
    }

    /// A rule a declared option broke.
    public enum OptionRule: Sendable, Equatable {
        case defaultNotAChoice, minimumNotAnInteger, defaultBelowMinimum(Int), negativeAnimation
    }

    /// What its process did (it could not start, did not answer, exited…), found and worded by
    /// the CLI; lines below the first are its standard error.
    case process(String)

    // Lines that are no message.
    case notJSON(Line, detail: String)
    case notAnObject(Line)

    // Replies.
    case replyFieldNotInteger(String)
    case replyFieldNotArray(String)
    case unknownReplyKey(String)
    case decisionShape
    case unknownDecision(String, known: [String])
    case unknownDecisionKey(verb: String, key: String)
    case startTimerIncomplete
    case notAPopupName(verb: String, got: String)
    case noSuchPopup(verb: String, name: String)
    case notANonNegativeInteger(key: String, got: String)
    case missingReason(verb: String)
    case unknownReason(verb: String, got: String)

    // The conversation.
    case notConnected
    case decidedAtStart
    case outOfStep(echoed: Int, expected: Int)
    case tooManyTimers(Int)
    case noPendingAtFinished
    case pendingBeforeFinished
    /// A decision the engine refused (`RunError.strategyBroke`'s words).
    case brokeRule(String)

    // Handshakes.
    case unknownHandshakeKey(String)
    case noProtocolVersion(Int)
    case otherProtocolVersion(Int, speaks: Int)
    case handshakeLacks(String)
    case handshakeField(String, expected: Expected, got: String)
    case optionDeclaredTwice(String)
    case optionNotAnObject(got: String)
    case unknownOptionKey(String)
    case optionRule(String, OptionRule)
}

/// A plug-in's failure: its problem, and where it showed (the reply it sent, the line it was
/// answering). `RunError.plugin` adds its name and the instant.
public struct PluginFailure: Error, Sendable, Equatable {
    public var problem: PluginProblem
    /// The line it sent that failed (shown after the problem).
    public var reply: [UInt8]?
    /// The line it was answering.
    public var answering: [UInt8]?

    public init(_ problem: PluginProblem, reply: [UInt8]? = nil, answering: [UInt8]? = nil) {
        self.problem = problem
        self.reply = reply
        self.answering = answering
    }

    /// The same failure, said to be in answer to `line`.
    public func answering(_ line: [UInt8]) -> PluginFailure {
        var failure = self
        failure.answering = line
        return failure
    }
}
