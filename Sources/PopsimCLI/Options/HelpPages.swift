/// The prose of each command's help page (convention 25: examples come first). The options are
/// not here: `HelpText.page` lists them from their declarations (`CommandOptions`).
enum HelpPages {
    static let file = ("<file>", "A scenario file (JSON, format 1); '-' reads standard input.")

    static let run = HelpPage(
        examples: ["popsim run Scenarios/jc-article-demo.json",
                   "popsim run Scenarios/jc-article-demo.json --strategy jc-lifo --option hideMs=0",
                   "popsim run Scenarios/jc-article-demo.json --format json --output out.json",
                   "popsim run Scenarios/jc-article-demo.json --update"],
        usage: ["popsim run <file>... [options]"], arguments: [file])

    static let compare = HelpPage(
        about: """
            One block per strategy in the order given, then a summary against the first: per popup when it \
            was first shown (or why not), its wait and how often it was preempted; totals with the \
            difference to the first; the scenario's properties (expect) under each strategy; and the first \
            instant at which each timeline departs from the first one's.
            """,
        examples: ["popsim compare Scenarios/first-launch.json --strategy fg --strategy jc-lifo",
                   "popsim compare flow.json --strategy fg --strategy fg:order=priority+lifo",
                   "popsim compare flow.json --strategy keyed --strategy fg --format gantt"],
        usage: ["popsim compare <file> --strategy <spec> --strategy <spec>... [options]"],
        arguments: [("<file>", "A scenario file (JSON, format 1).")])

    static let gen = HelpPage(
        about: """
            The same options always give the same bytes (popsim's own SplitMix64 generator). Popups mix \
            priorities, conditions, switch behaviours, toasts, simulated users, then flows, keys and levels; \
            events are drawn from the mix of action kinds.
            """,
        examples: ["popsim gen --events 1000 --seed 7 > Scenarios/generated.json",
                   "popsim gen --events 1000000 --seed 1 --output big.json",
                   "popsim gen --events 500 --seed 3 --mix enqueue=70,dismiss=30",
                   "popsim gen --trace --users 300 --seed 1 --catalog app.json > week.csv"],
        usage: ["popsim gen [options]"])

    static let explore = HelpPage(
        about: """
            A scenario's events may be uncertain: "at": [lo, hi] (some instant in the window), "order": \
            "any" on an enqueue of a list, "maybe": true. explore runs the variants (all of them when they \
            fit --budget, else a seeded sample with both ends of every window) under each strategy and \
            judges the scenario's "expect" in each: holds in all, or fails in K of N with the smallest \
            counterexample (nearest the nominal script).
            """,
        examples: ["popsim explore Scenarios/flow-wish-uncertain.json --strategy all",
                   "popsim explore first-launch.json --budget 100000 --seed 7 --jobs 2",
                   "popsim explore flow.json --strategy keyed --save regressions/",
                   "popsim explore flow.json --shard 0/4 --format json > s0.json",
                   "popsim explore --merge s0.json s1.json s2.json s3.json"],
        usage: ["popsim explore <file>... [options]", "popsim explore --merge <report>..."],
        arguments: [("<file>...", "Scenario files (JSON, format 1) with \"expect\".")])

    static let replay = HelpPage(
        about: """
            A trace is a table of rows from many users (CSV with a header, or JSON Lines): \
            user,time,action,popup,value. Each user's rows become one scenario: the catalog's popups, state \
            and expect, with the user's actions as its events. Rows 'shown' and 'dismissed' say what \
            production did: a dismissal becomes the user's answer (respond), and production becomes a column \
            to agree with. docs/replay.md.
            """,
        examples: ["popsim replay Examples/replay/week.csv --catalog Examples/replay/app.json",
                   "popsim replay week.csv --catalog app.json --strategy fg --strategy policy",
                   "zcat week.csv.gz | popsim replay - --catalog app.json --strategy all --jobs 2",
                   "popsim replay week.csv --catalog app.json --shard 0/4 --format json > s0.json",
                   "popsim replay --merge s0.json s1.json s2.json s3.json"],
        usage: ["popsim replay <trace> --catalog <file> [options]", "popsim replay --merge <report>..."],
        arguments: [("<trace>", "The trace: a file, or - for standard input.")])

    static let fit = HelpPage(
        about: """
            The trace is read as replay reads it and must have production's 'shown' rows. Users are split by \
            a hash of their id into users fitted on and users held back (--holdout). Every built-in strategy \
            with its options and policy with its knobs are searched: a first pass, then one option at a time on \
            a sample of users that grows. The report gives the best, its agreement with production (in order \
            and in timing) on both sets, the runners-up, the first users it gets wrong and the models that \
            fit as well as it within the noise; --sweep asks a what-if of each of them, every figure a range; \
            --output writes the catalog with the fitted model. docs/fit.md.
            """,
        examples: ["popsim fit Examples/replay/week.csv --catalog Examples/replay/app.json",
                   "popsim fit week.csv --catalog app.json --search policy --output fitted.json",
                   "popsim fit week.csv --catalog app.json --sweep cooldownMs=0,30000",
                   "popsim fit week.csv --catalog app.json --strategy exec:./ours.py",
                   "popsim fit week.csv --catalog app.json --shard 0/2 --format json > f0.json",
                   "popsim fit --merge f0.json f1.json --catalog app.json --output fitted.json"],
        usage: ["popsim fit <trace> --catalog <file> [options]", "popsim fit --merge <report>... [--catalog <file> --output <file>]"],
        arguments: [("<trace>", "The trace: a file, or - for standard input.")],
        exitCodes: "0 the search ran to its end, 2 bad usage or input, a plug-in that failed, or a search cut short (incomplete).")

    static let check = HelpPage(
        about: """
            Each scenario is run under every expected timeline beside it (<scenario>.<label>.timeline) and \
            under its own "strategy". A label is a strategy, exec-<stem> (a plug-in) or policy-<stem> (a \
            policy file): the scenario, the command line or a .popsim.json project file (docs/ci.md) says \
            which file; a golden nothing resolves is a FAIL. One line per scenario and strategy, PASS or \
            FAIL, a unified diff under each failure, and last the line 'N passed, N failed'.
            """,
        examples: ["popsim check Scenarios/", "popsim check Scenarios/first-launch.json --junit report.xml",
                   "popsim check Scenarios/new.json --strategy fg --update"],
        usage: ["popsim check <file-or-folder>... [options]"],
        arguments: [("<file-or-folder>", "A scenario file, or a folder: every *.json below it.")],
        exitCodes: "0 all passed, 1 a timeline differs or is missing, 2 bad usage or bad input.")

    static let lint = HelpPage(
        about: """
            Runs each scenario and prints one line per finding: popup fields and script actions the strategy \
            does not model (notes), and the hazards of the real library that the run hit: a popup lost, a \
            popup on screen the library stopped tracking, two popups on screen at once, a scheduler that \
            stopped, a popup still queued at the end whose condition never held while it waited. The last \
            line counts them.
            """,
        examples: ["popsim lint Scenarios/fg-remove.json", "popsim lint Scenarios/first-launch.json --strategy jc-lifo"],
        usage: ["popsim lint <file>... [options]"], arguments: [file],
        exitCodes: "0 no hazard, 1 a hazard was found, 2 bad usage or bad input.")

    static let strategies = HelpPage(
        examples: ["popsim strategies", "popsim strategies --strategy exec:Examples/plugins/flow-manager.py"],
        usage: ["popsim strategies [options]"])

    static let help = HelpPage(
        examples: ["popsim help run", "popsim help format", "popsim help options"],
        usage: ["popsim help [<subcommand>]"],
        // `{commands}`: the list of commands, filled in when the page is printed (`HelpText`).
        arguments: [("<subcommand>", "One of: {commands}; or format: every action and popup field of a scenario; or options: every command's options as tables.")],
        listsOptions: false)

    static let schema = HelpPage(
        about: """
            Editors use it to check and complete scenario files as you type. It checks shapes; popup ids, \
            state names and a strategy's options are checked by popsim itself ('popsim lint --load-only').
            """,
        examples: ["popsim schema --output popsim.schema.json"], usage: ["popsim schema [options]"])

    static let completion = HelpPage(
        about: """
            Commands, options (with their descriptions in zsh and fish), strategy names, values.
            """,
        examples: ["source <(popsim completion bash)", "popsim completion zsh > \"${fpath[1]}/_popsim\"",
                   "popsim completion fish > ~/.config/fish/completions/popsim.fish"],
        usage: ["popsim completion <shell>"], arguments: [("<shell>", "One of: bash, zsh, fish.")])
}
