import PopsimCore
import PopsimReports

extension CommandOptions {
    /// `gen`'s scenario and trace.
    static let generation: [CommandOption] = [
        CommandOption("events", "<n>", for: ["gen"], "Events in the script, at most \(GenCommand.maxEvents).", default: String(GenCommand.defaultEvents)),
        CommandOption("seed", "<n>", for: ["gen"], "Seed of the generator.", default: String(GenCommand.defaultSeed)),
        CommandOption("popups", "<n>", for: ["gen"], "Popups declared, at most \(GenCommand.maxPopups).", default: String(GenCommand.defaultPopups)),
        CommandOption("mix", "<kind=weight,…>", for: ["gen"],
                      "Weights of the action kinds. Kinds: " + ActionKind.allCases.map(\.keyword).joined(separator: ", ") + ".",
                      default: ScenarioGenerator.defaultMix.map { "\($0.0.keyword)=\($0.1)" }.joined(separator: ",")),
        CommandOption("strategy-mix", "<kind=weight,…>", for: ["gen"], "Another name for --mix."),
        CommandOption("trace", for: ["gen"],
                      "Write a trace of many users (CSV, for replay) instead: a week of sessions, campaigns, and production's shows and dismissals under --strategy."),
        CommandOption("users", "<n>", for: ["gen"], "Users in the trace.", default: String(GenCommand.defaultUsers)),
        CommandOption("catalog", "<file>", for: ["gen"], "Write the trace's catalog there: a new file (replay's --catalog reads it).", completes: .file),
        CommandOption("force", for: ["gen"], "Let --catalog replace a file that exists."),
    ]

    /// How `replay` reads its trace.
    static let replay: [CommandOption] = [
        CommandOption("catalog", "<file>", for: ["replay", "fit"],
                      "A scenario without events: popups, state, options, expect. (required)", completes: .jsonFile),
        CommandOption("columns", "<map>", for: ["replay", "fit"], "Column names of the fields, as field=name,...",
                      default: TraceField.allCases.map(\.rawValue).joined(separator: ",")),
        CommandOption("time-unit", "<unit>", for: ["replay", "fit"], "Unit of the time column.",
                      values: TraceLayout.TimeUnit.allCases.map(\.rawValue), default: "ms"),
        CommandOption("time-zone", "<offset>", for: ["replay", "fit"], "Offset of ISO 8601 times written without a zone, like +01:00.",
                      default: "UTC"),
        CommandOption("event", "<name=meaning>", repeatable: true, for: ["replay", "fit"],
                      "What an export's event name means: a word (popup_requested=enqueue), set VARIABLE (screen_view=set screen) or a word and a value; unmapped events are then skipped and counted."),
        CommandOption("mapping", "<file>", for: ["replay", "fit"],
                      "A JSON file of the export's columns, time, timeZone, events and popups (docs/replay.md); the options above go over it.",
                      completes: .jsonFile),
        CommandOption("trace-format", "<fmt>", for: ["replay", "fit"], "The trace's format.",
                      values: TraceFormats.names, default: "by the file's extension, else its first bytes"),
        CommandOption("grouped", for: ["replay"],
                      "Each user's rows are together: replay each user as its rows end (from a file this is found out; say it for standard input past --memory)."),
        CommandOption("strict", for: ["replay", "fit"],
                      "Make the trace's warnings errors (exit 2, nothing written): a condition's value no row sets, a mapped event no row has."),
        CommandOption("max-errors", "<n>", for: ["replay", "fit"],
                      "Skip up to n bad rows (and their users), report them and go on; more than half the rows left out stops.",
                      default: "0: the first bad row stops"),
        CommandOption("multiline-fields", for: ["replay", "fit"],
                      "A quoted CSV field may hold any number of line breaks (else one: a quote left open costs one row)."),
        CommandOption("by", "<group>", for: ["replay"],
                      "Also break every figure down by each popup, level or key of the catalog, or some of them as popup:NAME,… (text, markdown, charts; JSON and CSV have all).",
                      values: ReplayGroups.By.allCases.map(\.rawValue)),
        CommandOption("memory", "<size>", for: ["replay"],
                      "Peak memory of the whole replay, like sort -S (K, M, G); users past it go to temporary files (TMPDIR).",
                      default: "\(SpillPlan.defaultBudget >> 20)M"),
        CommandOption("pack", "<file>", for: ["replay"],
                      "Also write the trace's users, decoded against the catalog, to this file: replaying it (as the trace) skips reading the trace.",
                      completes: .file),
    ]
}
