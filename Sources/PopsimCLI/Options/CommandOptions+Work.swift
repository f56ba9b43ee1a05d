import PopsimCore
import PopsimReports

extension CommandOptions {
    /// How much work is done, where, and in what parts.
    static let work: [CommandOption] = [
        CommandOption("budget", "<n>", for: ["explore"], "Variants at most per scenario.",
                      default: String(ExploreCommand.defaultBudget)),
        CommandOption("seed", "<n>", for: ["explore"], "Seed of the sample when the variants exceed the budget.",
                      default: String(ExploreCommand.defaultSeed)),
        CommandOption("budget", "<n>", for: ["fit"], "Candidates scored at most, shared by the starts of the search.",
                      default: String(FitCommand.defaultBudget)),
        CommandOption("seed", "<n>", for: ["fit"], "Seed of the order users are sampled in.", default: String(FitCommand.defaultSeed)),
        CommandOption("holdout", "<share>", for: ["fit"], "Share of users (by a hash of their id) held back to test the fitted model, 0 to 0.9.",
                      default: FitCommand.defaultHoldout),
        CommandOption("jobs", "<n>", for: ["explore", "replay", "fit"], "Run on n cores; the output is the same.",
                      default: "the number of cores"),
        CommandOption("jobs", "<n>", for: ["check"], "Scenarios run at once.", default: "the number of cores"),
        CommandOption("shard", "<i/n>", for: ["explore"],
                      "Run only the variants numbered i modulo n (0 <= i < n), one machine's part; merge the JSON reports with --merge."),
        CommandOption("shard", "<i/n>", for: ["replay"],
                      "Replay only the users whose id hashes to i modulo n; merge the JSON reports with --merge."),
        CommandOption("shard", "<i/n>", for: ["fit"],
                      "Search only the starts numbered i modulo n (docs/fit.md); merge the JSON reports with --merge."),
        CommandOption("merge", for: ["fit"],
                      "Read the shards' JSON reports (the arguments) and print the report of the whole fit; with --output and --catalog, write the fitted catalog."),
        CommandOption("merge", for: ["explore"],
                      "Read the shards' JSON reports (the arguments) and print the report of the whole exploration."),
        CommandOption("merge", for: ["replay"],
                      "Read the shards' JSON reports (the arguments) and print the report of the whole replay."),
    ]

    /// The guards of docs/guarantees.md (see `Guards`): every command that runs scenarios takes
    /// them, and gen its timeout.
    static let guards: [CommandOption] = [
        CommandOption("max-steps", "<n>", for: runners, "Stop a run that takes more than n steps.",
                      default: String(RunLimits().maxSteps)),
        CommandOption("max-lines", "<n>", for: runners, "Stop a run whose timeline passes n lines; bounds its memory.",
                      default: String(RunLimits().maxLines)),
        CommandOption("max-input-mb", "<n>", for: runners, "Refuse input files larger than n MiB.",
                      default: String(FileIO.defaultMaxBytes >> 20)),
        CommandOption("timeout", "<seconds>", for: runners + ["gen"], "Stop after this long; 0 disables.",
                      default: String(Guards.defaultTimeout)),
    ]
}
