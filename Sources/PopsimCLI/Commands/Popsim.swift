import PopsimCore
import PopsimReports

/// The `popsim` command line: parses arguments and calls the library (design.md §7).
///
/// Contract: results go to `console.stdout`, errors to `console.stderr` one line each, and the
/// return value is the exit code. Nothing here exits the process or touches real streams.
public enum Popsim {
    public static let version = "0.1.0"

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
                console.out(BuildInfo.versionLine + "\n")
                return .success
            default:
                if let command = PopsimCommand.named(first) { return try command.execute(rest, &console) }
                let hint = Suggestion.didYouMean(first, among: PopsimCommand.all.map(\.name))
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
            let hint = Suggestion.didYouMean(topic, among: PopsimCommand.all.map(\.name))
            throw PopsimError.usage("help: unknown command \(JSONValue.quoted(topic))\(hint)")
        }
        console.out(text)
        return .success
    }
}
