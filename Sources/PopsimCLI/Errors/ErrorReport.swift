import PopsimCore
import PopsimReports

/// The one place a `PopsimError` becomes stderr lines and an exit code.
///
/// The prefix rule (docs/cli.md): a problem in an input file starts with that file
/// (`FILE:LINE:COL: path: …`, or `FILE: …`); everything else starts with `popsim: ` and the
/// command (`popsim: run: --format: …`); popsim's own bugs say `popsim: internal error: …`.
public enum ErrorReport {
    /// The lines for `error`; `context` names what the command line was doing when a
    /// configuration it chose did not fit (`run`, `compare: --strategy fg:order=up`).
    public static func lines(_ error: PopsimError, context: String? = nil) -> [String] {
        switch error {
        case .usage(let message):
            return ["popsim: " + message]
        case .input(let errors):
            return errors.errors.map(\.line)
        case .configuration(let problem):
            if case .noStrategy(let file) = problem {
                return ["\(file): no strategy: set \"strategy\" in the file or pass --strategy"]
            }
            return ["popsim: " + (context.map { $0 + ": " } ?? "") + words(problem)]
        case .run(let error):
            let message = RunErrorText.message(error)
            if error.isInternal { return ["popsim: internal error: " + message] }
            if case .runaway(_, _, _, perInstant: false) = error { return [message + " (raise the limit with --max-steps)"] }
            if case .tooManyLines = error { return [message + " (raise the limit with --max-lines)"] }
            // A plug-in's failure may end with the last lines of its stderr, one stderr line each.
            return message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .replay(let failure):
            // Run's words, the user they happened to first: `user "u1" (row 2): plug-in …`.
            var lines = self.lines(.run(failure.error))
            let who = "user \(JSONValue.quoted(failure.user.id)) (row \(failure.user.row)) under \(failure.column): "
            let internalPrefix = "popsim: internal error: "
            if lines[0].hasPrefix(internalPrefix) {
                lines[0] = internalPrefix + who + lines[0].dropFirst(internalPrefix.count)
            } else {
                lines[0] = who + lines[0]
            }
            return lines
        case .io(let path, let reason):
            return ["\(path): \(reason)"]
        case .internalError(let message):
            return ["popsim: internal error: " + message]
        }
    }

    /// The exit code of `error` (docs/cli.md).
    public static func code(_ error: PopsimError) -> ExitCode {
        error.isInternal ? .internalError : .badInput
    }

    /// A configuration problem in the words of the command line's flags.
    static func words(_ problem: ConfigurationError) -> String {
        switch problem {
        case .noStrategy(let file):
            return "\(file): no strategy"
        case .unknownStrategy(let name):
            let names = StrategyRegistry.names
            return "--strategy: " + LoadProblem.unknownStrategy(name, known: names,
                                                                suggestion: Suggestion.closest(name, among: names)).message
        case .malformedOverride(let text):
            return "--option: expected name=value, got \(JSONValue.quoted(text))"
        case .unknownOption(let name, let strategy, let known):
            return "--option: " + LoadProblem.unknownOption(name, strategy: strategy, known: known,
                                                            suggestion: Suggestion.closest(name, among: known)).message
        case .badOptionValue(let option, let expected, let got, let note):
            return "--option \(option): expected \(expected), got \(JSONValue.quoted(got))" + (note.map { " (\($0))" } ?? "")
        }
    }
}

extension Console {
    /// Writes `error`'s lines to stderr and returns its exit code.
    @discardableResult
    public mutating func report(_ error: PopsimError, context: String? = nil) -> ExitCode {
        for line in ErrorReport.lines(error, context: context) { self.error(line) }
        return ErrorReport.code(error)
    }
}
