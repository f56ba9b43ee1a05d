import PopsimCore
import PopsimReports

/// The `popsim` command line: parses arguments and calls the library (design.md §7).
///
/// Contract: results go to `console.stdout`, errors to `console.stderr` one line each, and the
/// return value is the exit code. Nothing here exits the process or touches real streams.
public enum Popsim {
    public static let version = "0.1.0"

    static let commands: [(name: String, summary: String)] = [
        ("run", "Run scenarios and print their timelines."),
        ("check", "Check scenarios against their expected timelines."),
        ("compare", "Run one scenario under several strategies, side by side."),
        ("lint", "List what a strategy ignores and the hazards a run hits."),
        ("explore", "Run every arrival order and timing a scenario leaves open; judge its properties."),
        ("replay", "Run a trace of many users under each strategy; add the runs up side by side."),
        ("gen", "Write a seeded scenario of any size."),
        ("strategies", "List the strategies with their options."),
        ("schema", "Print the JSON Schema of the scenario format."),
        ("completion", "Print a shell completion script (bash, zsh, fish)."),
        ("help", "Show help for a command."),
    ]

    /// Every command with its options, for the completion scripts.
    static let commandSpecs: [(name: String, specs: [Arguments.Spec])] = [
        ("run", RunCommand.specs), ("check", CheckCommand.specs), ("compare", CompareCommand.specs),
        ("lint", LintCommand.specs), ("explore", ExploreCommand.specs), ("replay", ReplayCommand.specs), ("gen", GenCommand.specs), ("strategies", StrategiesCommand.specs),
        ("schema", SchemaCommand.specs), ("completion", CompletionCommand.specs), ("help", []),
    ]

    public static func main(_ arguments: [String], console: inout Console) -> ExitCode {
        defer { PluginPool.closeAll() }
        guard let first = arguments.first else {
            console.out(HelpText.main)
            return .success
        }
        let rest = Array(arguments.dropFirst())
        do throws(PopsimError) {
            switch first {
            case "-h", "--help":
                console.out(HelpText.main)
                return .success
            case "--version":
                console.out("popsim \(version)\n")
                return .success
            case "help":
                return try help(rest, console: &console)
            case "run":
                return try RunCommand.execute(rest, console: &console)
            case "compare":
                return try CompareCommand.execute(rest, console: &console)
            case "check":
                return try CheckCommand.execute(rest, console: &console)
            case "replay":
                return try ReplayCommand.execute(rest, console: &console)
            case "gen":
                return try GenCommand.execute(rest, console: &console)
            case "lint":
                return try LintCommand.execute(rest, console: &console)
            case "explore":
                return try ExploreCommand.execute(rest, console: &console)
            case "strategies":
                return try StrategiesCommand.execute(rest, console: &console)
            case "schema":
                return try SchemaCommand.execute(rest, console: &console)
            case "completion":
                return try CompletionCommand.execute(rest, console: &console)
            default:
                let hint = Suggestion.didYouMean(first, among: commands.map(\.name))
                let what = first.hasPrefix("-") ? "option" : "command"
                throw PopsimError.usage("unknown \(what) \(JSONValue.quoted(first))\(hint); see 'popsim --help'")
            }
        } catch {
            return console.report(error, context: first)
        }
    }

    static func help(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let topic = arguments.first else {
            console.out(HelpText.main)
            return .success
        }
        guard let text = HelpText.forCommand(topic) else {
            let hint = Suggestion.didYouMean(topic, among: commands.map(\.name))
            throw PopsimError.usage("help: unknown command \(JSONValue.quoted(topic))\(hint)")
        }
        console.out(text)
        return .success
    }
}
