import PopsimCore
import PopsimReports

extension CommandOptions {
    /// Which strategies run, with which options, and how plug-ins are treated.
    static let strategies: [CommandOption] = [
        CommandOption("strategy", "<name>", for: ["run", "lint"],
                      "The strategy to run (default: the file's \"strategy\"); exec:PATH runs a plug-in (docs/plugin-protocol.md).",
                      completes: .strategies(all: false)),
        CommandOption("strategy", "<spec>", repeatable: true, for: ["compare"],
                      "A strategy, optionally with options: name or name:option=value,option=value. At least two; the first is the reference. 'all': every strategy.",
                      completes: .strategies(all: true)),
        CommandOption("strategy", "<name>", repeatable: true, for: ["check"], "Check only these strategies; repeatable.",
                      completes: .strategies(all: false)),
        CommandOption("strategy", "<name>", repeatable: true, for: ["explore"],
                      "A strategy to explore under (repeatable); 'all': every strategy.", default: "the file's \"strategy\"",
                      completes: .strategies(all: true)),
        CommandOption("strategy", "<name>", repeatable: true, for: ["replay"],
                      "A column to run (repeatable): a strategy, with options as name:option=value,...; 'all': every strategy.",
                      default: "the catalog's \"strategy\"", completes: .strategies(all: true)),
        CommandOption("strategy", "<name>", repeatable: true, for: ["strategies"],
                      "Only this strategy (repeatable); exec:PATH describes a plug-in from its handshake (docs/plugin-protocol.md).",
                      completes: .strategies(all: false)),
        CommandOption("strategy", "<name>", for: ["gen"],
                      "The scenario's \"strategy\"; with --trace, what production runs (exec:PATH: a plug-in).", default: "fg",
                      completes: .strategies(all: false)),
        CommandOption("policy", "<file>", for: ["run", "check", "lint", "explore", "gen"],
                      "The rules of the strategy 'policy', from a file (docs/policy.md); without --strategy, runs 'policy'.",
                      completes: .jsonFile),
        CommandOption("policy", "<file>", for: ["compare", "replay"],
                      "The rules of the strategy 'policy', from a file (docs/policy.md).", completes: .jsonFile),
        CommandOption("plugin-timeout", "<s>", for: runners + ["strategies", "gen"],
                      "Seconds a plug-in (--strategy exec:PATH, docs/plugin-protocol.md) may take to answer.",
                      default: String(StrategyArguments.defaultTimeoutMs / 1000)),
        CommandOption("plugin-per-run", for: runners + ["strategies", "gen"],
                      "A new plug-in process for every run, even when the plug-in offers to serve many (\"persistent\")."),
        CommandOption("option", "<name=value>", repeatable: true, for: ["run", "check", "lint"],
                      "Set a strategy option; repeatable (see 'popsim strategies').", completes: .optionNames),
        CommandOption("sweep", "<name=v1,v2,…>", repeatable: true, for: ["replay"],
                      "Run every value of a strategy option or policy knob (repeatable: every combination); a column each."),
    ]
}
