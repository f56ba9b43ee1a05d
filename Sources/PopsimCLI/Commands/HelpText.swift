import PopsimCore
import PopsimReports

/// The help pages, asserted verbatim in tests (convention 25). Examples come first.
enum HelpText {
    static func forCommand(_ name: String) -> String? {
        switch name {
        case "run": return run
        case "lint": return lint
        case "check": return check
        case "explore": return explore
        case "replay": return replay
        case "compare": return compare
        case "gen": return gen
        case "strategies": return strategies
        case "help": return help
        case "format": return format
        case "schema": return schema
        case "completion": return completion
        default: return nil
        }
    }

    /// The guard options every command that runs scenarios takes (see `Guards`).
    static let guards = """
          --max-steps <n>         Stop a run that takes more than n steps.
                                  (default: 50000000)
          --max-lines <n>         Stop a run whose timeline passes n lines; bounds
                                  its memory. (default: 5000000)
          --max-input-mb <n>      Refuse input files larger than n MiB. (default: 256)
          --timeout <seconds>     Stop after this long; 0 disables. (default: 600)
        """

    static let main = """
        OVERVIEW: popsim simulates how an app schedules its popups, on a virtual clock.

        A scenario file lists popups and a timed script (enqueues, state changes, user
        responses); a strategy modelled on a real scheduler library decides what shows
        when; popsim prints the exact show/hide timeline, byte for byte the same each run.

        EXAMPLES:
          popsim run Scenarios/jc-article-demo.json
          popsim run Scenarios/jc-article-demo.json --strategy jc-lifo --format json
          popsim check Scenarios/
          popsim compare Scenarios/first-launch.json --strategy fg --strategy jc-lifo
          popsim lint Scenarios/fg-remove.json
          popsim strategies

        USAGE: popsim <subcommand> [options]

        SUBCOMMANDS:
          run                     Run scenarios and print their timelines.
          check                   Check scenarios against their expected timelines (CI).
          compare                 Run one scenario under several strategies, side by side.
          explore                 Try every arrival order and timing for one that breaks a
                                  property.
          lint                    List what a strategy ignores and the hazards a run hits.
          replay                  Run a trace of many users under each strategy; add the
                                  runs up side by side.
          gen                     Write a seeded scenario of any size.
          strategies              List the strategies with their options.
          schema                  Print the JSON Schema of the scenario format.
          completion <shell>      Print a completion script for bash, zsh or fish.
          help <subcommand>       Show help for a subcommand; 'help format' lists every
                                  action and popup field.

        OPTIONS:
          -h, --help              Show help information.
          --version               Show the version.

        EXIT CODES:
          0 success, 1 a check found a difference or lint a hazard, 2 bad usage or bad
          input, 70 internal error (a strategy broke the engine's rules: a bug in popsim).

        """

    static let run = """
        OVERVIEW: Run scenarios and print their timelines.

        EXAMPLES:
          popsim run Scenarios/jc-article-demo.json
          popsim run Scenarios/jc-article-demo.json --strategy jc-lifo --option hideMs=0
          popsim run Scenarios/jc-article-demo.json --format json --output out.json
          popsim run Scenarios/jc-article-demo.json --update

        USAGE: popsim run <file>... [options]

        ARGUMENTS:
          <file>                  A scenario file (JSON, format 1); '-' reads standard input.

        OPTIONS:
          --strategy <name>       The strategy to run (default: the file's "strategy");
                                  exec:PATH runs a plug-in (docs/plugin-protocol.md).
          --policy <file>         The rules of the strategy 'policy', from a file
                                  (docs/policy.md); without --strategy, runs 'policy'.
          --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH,
                                  docs/plugin-protocol.md) may take to answer. (default: 5)
          --plugin-per-run        A new plug-in process for every run, even when the
                                  plug-in offers to serve many ("persistent").
          --option <name=value>   Set a strategy option; repeatable (see 'popsim strategies').
          --format <format>       Output format. (values: text, json, gantt, svg, html,
                                  trace; default: text) Several files as json: one
                                  array; trace is Trace Event JSON for Perfetto.
          --output <file>         Write the report to a file, atomically, instead of stdout.
          --quiet                 Do not note on stderr what the strategy ignores.
          --force                 Draw an svg or html chart of more than 100000 marks.
          --color <when>          Colour the timeline and the gantt chart. (values: auto,
                                  always, never; default: auto: only on a terminal and
                                  without NO_COLOR)
          --ascii                 Draw the gantt chart in plain ASCII (also when the
                                  locale is not UTF-8). It is as wide as the terminal,
                                  else COLUMNS, else 80 (kept within 40...1000).
          --update                Rewrite each scenario's expected timeline
                                  (<scenario>.<strategy>.timeline) instead of printing.
                                  Refused when CI is set, and with --option (set options
                                  in the file). Review 'git diff' afterwards.
        \(guards)
          -h, --help              Show help information.

        """

    static let compare = """
        OVERVIEW: Run one scenario under several strategies, side by side.

        One block per strategy in the order given, then a summary against the first:
        per popup when it was first shown (or why not), its wait and how often it was
        preempted; totals with the difference to the first; the scenario's properties
        (expect) under each strategy; and the first instant at which each timeline
        departs from the first one's.

        EXAMPLES:
          popsim compare Scenarios/first-launch.json --strategy fg --strategy jc-lifo
          popsim compare Scenarios/fg-switch-latent.json --strategy fg --strategy fg:order=priority+lifo
          popsim compare Scenarios/flow-wish-http.json --strategy keyed --strategy fg --format gantt

        USAGE: popsim compare <file> --strategy <spec> --strategy <spec>... [options]

        ARGUMENTS:
          <file>                  A scenario file (JSON, format 1).

        OPTIONS:
          --strategy <spec>       A strategy, optionally with options: name or
                                  name:option=value,option=value. At least two; the
                                  first is the reference. 'all': every strategy.
          --policy <file>         The rules of the strategy 'policy', from a file
                                  (docs/policy.md).
          --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH,
                                  docs/plugin-protocol.md) may take to answer. (default: 5)
          --plugin-per-run        A new plug-in process for every run, even when the
                                  plug-in offers to serve many ("persistent").
          --format <format>       Output format. (values: text, json, markdown, gantt,
                                  svg, html, trace; default: text)
          --output <file>         Write the report to a file, atomically, instead of stdout.
          --ascii                 Draw the gantt chart in plain ASCII.
          --force                 Draw an svg or html chart of more than 100000 marks.
          --color <when>          Colour where it helps, on a terminal only. (values:
                                  auto, always, never; default: auto, never with NO_COLOR)
        \(guards)
          -h, --help              Show help information.

        """

    /// The `--mix` help, from the vocabulary and the generator's defaults.
    static let mixHelp = wrapped("Weights of the action kinds (also --strategy-mix). Kinds: "
        + ActionKind.allCases.map(\.keyword).joined(separator: ", ") + ". (default: "
        + ScenarioGenerator.defaultMix.map { "\($0.0.keyword)=\($0.1)" }.joined(separator: ",") + ")", indent: 26)

    /// Words wrapped to 80 columns, breaking at spaces or after commas; continuation lines are
    /// indented by `indent` (the first line starts there already).
    static func wrapped(_ text: String, indent: Int, width: Int = 80) -> String {
        wrapped(text, first: indent, indent: indent, width: width)
    }

    /// The same, with the first line starting at column `first`.
    static func wrapped(_ text: String, first: Int, indent: Int, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        var word = ""
        func place(_ piece: String) {
            let start = lines.isEmpty ? first : indent
            if !line.isEmpty && start + line.count + piece.count > width {
                lines.append(line.trailingSpacesRemoved)
                line = ""
            }
            line += line.isEmpty ? piece.drop { $0 == " " }.description : piece
        }
        for c in text {
            word.append(c)
            if c == " " || c == "," {
                place(word)
                word = ""
            }
        }
        place(word)
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    static let gen = """
        OVERVIEW: Write a seeded scenario of any size.

        The same options always give the same bytes (popsim's own SplitMix64 generator).
        Popups mix priorities, conditions, switch behaviours, toasts, simulated users,
        then flows, keys and levels; events are drawn from the mix of action kinds.

        EXAMPLES:
          popsim gen --events 1000 --seed 7 > Scenarios/generated.json
          popsim gen --events 1000000 --seed 1 --output big.json
          popsim gen --events 500 --seed 3 --mix enqueue=70,dismiss=30
          popsim gen --trace --users 300 --seed 1 --catalog app.json > week.csv

        USAGE: popsim gen [options]

        OPTIONS:
          --events <n>            Events in the script, at most 100000000. (default: 1000)
          --seed <n>              Seed of the generator. (default: 1)
          --popups <n>            Popups declared, at most 1000000. (default: 50)
          --strategy <name>       The scenario's "strategy". (default: fg)
          --mix <kind=weight,…>   \(mixHelp)
          --trace                 Write a trace of many users (CSV, for replay) instead:
                                  a week of sessions, campaigns, and production's shows and
                                  dismissals under --strategy.
          --users <n>             Users in the trace. (default: 300)
          --catalog <file>        Write the trace's catalog there.
          --output <file>         Write to a file, atomically, instead of stdout.
          --timeout <seconds>     Stop after this long; 0 disables. (default: 600)
          -h, --help              Show help information.

        """

    static let explore = """
        OVERVIEW: Run every arrival order and timing a scenario leaves open; judge its properties.

        A scenario's events may be uncertain: "at": [lo, hi] (some instant in the window),
        "order": "any" on an enqueue of a list, "maybe": true. explore runs the variants
        (all of them when they fit --budget, else a seeded sample with both ends of every
        window) under each strategy and judges the scenario's "expect" in each: holds in all,
        or fails in K of N with the smallest counterexample (nearest the nominal script).

        EXAMPLES:
          popsim explore Scenarios/flow-wish-uncertain.json --strategy all
          popsim explore first-launch.json --budget 100000 --seed 7 --jobs 2
          popsim explore flow.json --strategy keyed --save regressions/
          popsim explore flow.json --shard 0/4 --format json > shard-0.json
          popsim explore --merge shard-0.json shard-1.json shard-2.json shard-3.json

        USAGE: popsim explore <file>... [options]
               popsim explore --merge <report>...

        ARGUMENTS:
          <file>...               Scenario files (JSON, format 1) with "expect".

        OPTIONS:
          --strategy <name>       A strategy to explore under (repeatable); 'all': every
                                  strategy. (default: the file's "strategy")
          --policy <file>         The rules of the strategy 'policy', from a file
                                  (docs/policy.md); without --strategy, runs 'policy'.
          --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH,
                                  docs/plugin-protocol.md) may take to answer. (default: 5)
          --plugin-per-run        A new plug-in process for every run, even when the
                                  plug-in offers to serve many ("persistent").
          --budget <n>            Variants at most per scenario. (default: 10000)
          --seed <n>              Seed of the sample when the variants exceed the budget.
                                  (default: 1)
          --jobs <n>              Run on n cores; the output is the same. (default: the
                                  number of cores)
          --save <dir>            Write each smallest counterexample as a plain scenario,
                                  <name>.<strategy>.<n>.json, for check to run.
          --format <format>       Output format. (values: text, json; default: text)
          --shard <i/n>           Run only the variants numbered i modulo n (0 <= i < n),
                                  one machine's part; merge the JSON reports with --merge.
          --merge                 Read the shards' JSON reports (the arguments) and print
                                  the report of the whole exploration.
        \(guards)
          -h, --help              Show help information.

        """

    static let replay = """
        OVERVIEW: Run a trace of many users under each strategy; add the runs up side by side.

        A trace is a table of rows from many users (CSV with a header, or JSON Lines):
        user,time,action,popup,value. Each user's rows become one scenario: the catalog's
        popups, state and expect, with the user's actions as its events. Rows 'shown' and
        'dismissed' say what production did: a dismissal becomes the user's answer
        (respond), and production becomes a column to agree with. docs/replay.md.

        EXAMPLES:
          popsim replay Examples/replay/week.csv --catalog Examples/replay/app.json
          popsim replay week.csv --catalog app.json --strategy fg --strategy policy
          zcat week.csv.gz | popsim replay - --catalog app.json --strategy all --jobs 2
          popsim replay week.csv --catalog app.json --shard 0/4 --format json > shard-0.json
          popsim replay --merge shard-0.json shard-1.json shard-2.json shard-3.json

        USAGE: popsim replay <trace> --catalog <file> [options]
               popsim replay --merge <report>...

        ARGUMENTS:
          <trace>                 The trace: a file, or - for standard input.

        OPTIONS:
          --catalog <file>        A scenario without events: popups, state, options,
                                  expect. (required)
          --strategy <name>       A column to run (repeatable): a strategy, with options as
                                  name:option=value,...; 'all': every strategy. (default:
                                  the catalog's "strategy")
          --policy <file>         The rules of the strategy 'policy', from a file
                                  (docs/policy.md).
          --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH) may take to
                                  answer. (default: 5)
          --plugin-per-run        A new plug-in process for every run.
          --jobs <n>              Run on n cores; the output is the same. (default: the
                                  number of cores)
          --format <format>       Output format. (values: text, markdown, json, csv, html,
                                  svg; default: text)
          --output <file>         Write the report to a file (atomically).
          --columns <map>         Column names of the fields, as field=name,...
                                  (default: user,time,action,popup,value)
          --time-unit <unit>      Unit of the time column. (values: ms, s, iso8601;
                                  default: ms)
          --trace-format <fmt>    csv or jsonl. (default: by the file's extension; csv)
          --grouped               Each user's rows are together: read in one pass with the
                                  memory of one batch of users.
          --shard <i/n>           Replay only the users whose id hashes to i modulo n;
                                  merge the JSON reports with --merge.
          --merge                 Read the shards' JSON reports (the arguments) and print
                                  the report of the whole replay.
          --save <dir>            Write the first users where a property fails as plain
                                  scenarios, <row>-<user>.<column>.json, for check.
          --sweep <name=v1,v2,…>  Run every value of a strategy option or policy knob
                                  (repeatable: every combination); a column each.
          --max-errors <n>        Skip up to n bad rows (and their users), report them and
                                  go on. (default: 0: the first bad row stops)
          --partition-rows <n>    Rows kept in memory before a trace whose users are not
                                  together is partitioned to temporary files (TMPDIR).
                                  (default: 4000000)
        \(guards)
          -h, --help              Show help information.

        """

    static let check = """
        OVERVIEW: Check scenarios against their expected timelines (CI).

        Each scenario is run under every expected timeline beside it
        (<scenario>.<label>.timeline) and under its own "strategy". A label is a strategy,
        exec-<stem> (a plug-in) or policy-<stem> (a policy file): the scenario, the command
        line or a .popsim.json project file (docs/ci.md) says which file; a golden nothing
        resolves is a FAIL. One line per scenario and strategy, PASS or FAIL, a unified diff
        under each failure, and last the line 'N passed, N failed'.

        EXAMPLES:
          popsim check Scenarios/
          popsim check Scenarios/first-launch.json --junit report.xml
          popsim check Scenarios/new.json --strategy fg --update

        USAGE: popsim check <file-or-folder>... [options]

        ARGUMENTS:
          <file-or-folder>        A scenario file, or a folder: every *.json below it.

        OPTIONS:
          --strategy <name>       Check only these strategies; repeatable.
          --policy <file>         The rules of the strategy 'policy', from a file
                                  (docs/policy.md); without --strategy, runs 'policy'.
          --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH,
                                  docs/plugin-protocol.md) may take to answer. (default: 5)
          --plugin-per-run        A new plug-in process for every run, even when the
                                  plug-in offers to serve many ("persistent").
          --option <name=value>   Set a strategy option; repeatable.
          --update                Write the expected timelines that differ or are missing
                                  (with "expect" too), atomically. Refused when CI is set.
                                  Review 'git diff'.
          --junit <file>          Also write a JUnit XML report (time in seconds).
          --format <format>       Report as lines, one JSON document, or lines with GitHub
                                  Actions annotations. (values: text, json, github;
                                  default: text)
          --jobs <n>              Scenarios run at once. (default: the number of cores)
          --color <when>          Colour where it helps, on a terminal only. (values:
                                  auto, always, never; default: auto, never with NO_COLOR)
        \(guards)
          -h, --help              Show help information.

        EXIT CODES:
          0 all passed, 1 a timeline differs or is missing, 2 bad usage or bad input.

        """

    static let lint = """
        OVERVIEW: List what a strategy ignores and the hazards a run hits.

        Runs each scenario and prints one line per finding: popup fields and script
        actions the strategy does not model (notes), and the hazards of the real
        library that the run hit: a popup lost, a popup on screen the library stopped
        tracking, two popups on screen at once, a scheduler that stopped, a popup still
        queued at the end whose condition never held while it waited. The last line
        counts them.

        EXAMPLES:
          popsim lint Scenarios/fg-remove.json
          popsim lint Scenarios/first-launch.json --strategy jc-lifo

        USAGE: popsim lint <file>... [options]

        ARGUMENTS:
          <file>                  A scenario file (JSON, format 1); '-' reads standard input.

        OPTIONS:
          --strategy <name>       The strategy to run (default: the file's "strategy");
                                  exec:PATH runs a plug-in (docs/plugin-protocol.md).
          --policy <file>         The rules of the strategy 'policy', from a file
                                  (docs/policy.md); without --strategy, runs 'policy'.
          --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH,
                                  docs/plugin-protocol.md) may take to answer. (default: 5)
          --plugin-per-run        A new plug-in process for every run, even when the
                                  plug-in offers to serve many ("persistent").
          --option <name=value>   Set a strategy option; repeatable (see 'popsim strategies').
          --load-only             Only load and validate the files: 'FILE: N popups, N events'.
          --color <when>          Colour where it helps, on a terminal only. (values:
                                  auto, always, never; default: auto, never with NO_COLOR)
          --format <format>       Report as lines or one JSON document. (values: text, json;
                                  default: text)
        \(guards)
          -h, --help              Show help information.

        EXIT CODES:
          0 no hazard, 1 a hazard was found, 2 bad usage or bad input.

        """

    static let strategies = """
        OVERVIEW: List the strategies with their options.

        EXAMPLES:
          popsim strategies
          popsim strategies --strategy exec:Examples/plugins/flow-manager.py

        USAGE: popsim strategies [options]

        OPTIONS:
          --strategy <name>       Only this strategy (repeatable); exec:PATH describes a
                                  plug-in from its handshake (docs/plugin-protocol.md).
          -h, --help              Show help information.

        """

    static let help = """
        OVERVIEW: Show help for a subcommand.

        EXAMPLES:
          popsim help run
          popsim help format

        USAGE: popsim help [<subcommand>]

        ARGUMENTS:
          <subcommand>            One of: run, check, compare, lint, gen, strategies,
                                  schema, completion, help; or format: every action and
                                  popup field of a scenario.

        """

    static let schema = """
        OVERVIEW: Print the JSON Schema (draft 2020-12) of the scenario format.

        Editors use it to check and complete scenario files as you type. It checks shapes;
        popup ids, state names and a strategy's options are checked by popsim itself
        ('popsim lint --load-only').

        EXAMPLES:
          popsim schema --output popsim.schema.json

        USAGE: popsim schema [options]

        OPTIONS:
          --output <file>         Write to a file, atomically, instead of stdout.
          -h, --help              Show help information.

        """

    static let completion = """
        OVERVIEW: Print a shell completion script: commands, options, strategy names.

        EXAMPLES:
          source <(popsim completion bash)
          popsim completion zsh > "${fpath[1]}/_popsim"
          popsim completion fish > ~/.config/fish/completions/popsim.fish

        USAGE: popsim completion <shell>

        ARGUMENTS:
          <shell>                 One of: bash, zsh, fish.

        OPTIONS:
          -h, --help              Show help information.

        """

    /// The scenario format's reference, made from the vocabulary (docs/scenario-format.md holds
    /// the same tables).
    static var format: String { "# The scenario format: actions and popup fields\n\n" + FormatReference.markdown() }
}
