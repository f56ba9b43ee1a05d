import PopsimCore
import PopsimReports

/// Every command-line option of popsim, each declared once (see `CommandOption`). A command's
/// options are the declarations naming it, in this order, then `--help`; adding an option to a
/// command is one declaration here (docs/architecture.md).
enum CommandOptions {
    static let all: [CommandOption] = generation + replay + strategies + outputs + work + guards

    /// The commands that run scenarios under strategies.
    static let runners = ["run", "compare", "check", "lint", "explore", "replay", "fit"]

    /// A command's options, `--help` last.
    static func options(for command: String) -> [CommandOption] {
        all.filter { $0.commands.contains(command) } + [help]
    }

    /// What the parser needs of a command's options.
    static func specs(for command: String) -> [Arguments.Spec] { options(for: command).map(\.spec) }

    static let help = CommandOption("help", for: [], "Show help information.")
}
