import PopsimCore
import PopsimReports

/// One subcommand: its name, its one-line summary, its help page's prose and what runs it.
/// `PopsimCommand.all` is the one list of commands: dispatch, the help pages, the completion
/// scripts and docs/cli.md's tables all read it (with `CommandOptions` for the options).
struct PopsimCommand: Sendable {
    typealias Execute = @Sendable ([String], inout Console) throws(PopsimError) -> ExitCode

    let name: String
    /// The OVERVIEW line of its page and its line in the main page and the completions.
    let summary: String
    /// How the main page lists it: the name, with its argument where it takes one.
    let synopsis: String
    /// Its arguments are scenario files (or folders): what the shell completes besides options.
    let takesScenarios: Bool
    let page: HelpPage
    let execute: Execute

    init(_ name: String, _ summary: String, synopsis: String? = nil, takesScenarios: Bool = false, page: HelpPage,
         execute: @escaping Execute) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis ?? name
        self.takesScenarios = takesScenarios
        self.page = page
        self.execute = execute
    }

    var options: [CommandOption] { CommandOptions.options(for: name) }

    static func named(_ name: String) -> PopsimCommand? { all.first { $0.name == name } }

    static let all: [PopsimCommand] = [
        PopsimCommand("run", "Run scenarios and print their timelines.", takesScenarios: true, page: HelpPages.run, execute: RunCommand.execute),
        PopsimCommand("check", "Check scenarios against their expected timelines (CI).", takesScenarios: true, page: HelpPages.check, execute: CheckCommand.execute),
        PopsimCommand("compare", "Run one scenario under several strategies, side by side.", takesScenarios: true,
                      page: HelpPages.compare, execute: CompareCommand.execute),
        PopsimCommand("lint", "List what a strategy ignores and the hazards a run hits.", takesScenarios: true, page: HelpPages.lint, execute: LintCommand.execute),
        PopsimCommand("explore", "Run every arrival order and timing a scenario leaves open; judge its properties.",
                      takesScenarios: true, page: HelpPages.explore, execute: ExploreCommand.execute),
        PopsimCommand("replay", "Run a trace of many users under each strategy; add the runs up side by side.",
                      page: HelpPages.replay, execute: ReplayCommand.execute),
        PopsimCommand("fit", "Find the model of your own scheduler that agrees best with a trace's production rows.",
                      page: HelpPages.fit, execute: FitCommand.execute),
        PopsimCommand("gen", "Write a seeded scenario of any size.", page: HelpPages.gen, execute: GenCommand.execute),
        PopsimCommand("strategies", "List the strategies with their options.", page: HelpPages.strategies, execute: StrategiesCommand.execute),
        PopsimCommand("schema", "Print the JSON Schema (draft 2020-12) of the scenario format.", page: HelpPages.schema, execute: SchemaCommand.execute),
        PopsimCommand("completion", "Print a shell completion script (bash, zsh, fish).", synopsis: "completion <shell>",
                      page: HelpPages.completion, execute: CompletionCommand.execute),
        PopsimCommand("help", "Show help for a command; 'help format' lists every action and popup field, 'help options' every option.",
                      synopsis: "help <subcommand>", page: HelpPages.help, execute: Popsim.help),
    ]
}

/// A help page's prose; its OVERVIEW line is the command's summary and its OPTIONS are made
/// from the command's declared options (`HelpText.page`).
struct HelpPage: Sendable {
    /// A paragraph after the OVERVIEW line (wrapped when printed).
    var about: String?
    var examples: [String]
    /// One or more usage lines.
    var usage: [String]
    /// Each positional argument and what it is.
    var arguments: [(String, String)] = []
    /// Whether the page lists options (`help` takes none).
    var listsOptions = true
    var exitCodes: String?
}
