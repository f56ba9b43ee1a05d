import PopsimCore
import PopsimReports

/// `popsim gen --events N --seed S`: a seeded scenario of any size (see `ScenarioGenerator`).
enum GenCommand {
    /// The largest scenario gen writes: about 4 GB of text, a run of a few minutes.
    static let maxEvents = 100_000_000
    static let maxPopups = 1_000_000
    /// The defaults of `--events`, `--seed`, `--popups` and `--users` (their declarations show them).
    static let defaultEvents = 1000, defaultSeed = 1, defaultPopups = 50, defaultUsers = 300

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "gen", console: &console) else { return .success }
        if let extra = args.positionals.first { throw PopsimError.usage("gen: unexpected argument \(JSONValue.quoted(extra))") }
        if args.flag("trace") { return try trace(args, console: &console) }
        for option in ["policy", "plugin-timeout", "plugin-per-run", "option"] where args.value(option) != nil || args.flag(option) {
            throw PopsimError.usage("gen: --\(option) goes with --trace (production's rows); a scenario only names its strategy")
        }
        let events = try number(args, "events", default: defaultEvents, minimum: 0, maximum: maxEvents)
        let seed = try number(args, "seed", default: defaultSeed, minimum: 0, maximum: Int.max)
        let popups = try number(args, "popups", default: defaultPopups, minimum: 1, maximum: maxPopups)
        try Guards(args, command: "gen").arm(console)
        let strategy = args.value("strategy") ?? "fg"
        guard StrategyRegistry.entry(named: strategy) != nil else { throw PopsimError.configuration(.unknownStrategy(strategy)) }
        let mix = try parseMix(args.value("mix") ?? args.value("strategy-mix"))
        let generator = ScenarioGenerator(events: events, seed: UInt64(seed), popups: popups, strategy: strategy, mix: mix)
        let progress = console.progressLine()
        let text = generator.generate(progress: progress.map { line in { done, total in line.update("gen: \(done) of \(total) events") } })
        progress?.finish()
        return RunCommand.emit(text, to: args.value("output"), console: &console)
    }

    /// `gen --trace --users N [--catalog FILE]`: a synthetic trace (CSV) and its catalog, with
    /// production's rows under `--strategy` (a built-in, `exec:PATH`) or `--policy FILE`.
    static func trace(_ args: Arguments, console: inout Console) throws(PopsimError) -> ExitCode {
        let users = try number(args, "users", default: defaultUsers, minimum: 1, maximum: 10_000_000)
        let seed = try number(args, "seed", default: defaultSeed, minimum: 0, maximum: Int.max)
        try Guards(args, command: "gen").arm(console)
        let strategies = try StrategyArguments.set(args)
        let strategy = StrategyArguments.defaultStrategy(args) ?? "fg"
        guard strategies.entry(named: strategy) != nil else { throw PopsimError.configuration(.unknownStrategy(strategy)) }
        // The trace and its catalog are two files, and neither replaces what gen reads (a policy
        // file, a plug-in).
        let inputs = OutputGuard.inputs(args, catalogIsInput: false)
        try OutputGuard.refuse(output: args.value("output"), inputs: inputs + args.all("catalog"), command: "gen")
        try OutputGuard.refuse(output: args.value("catalog"), option: "--catalog", inputs: inputs, command: "gen")
        try OutputGuard.refuseOneFile(("--catalog", args.value("catalog")), ("--output", args.value("output")), command: "gen")
        var generator = TraceGenerator(users: users, seed: UInt64(seed), strategy: strategy, strategies: strategies)
        generator.overrides = try OptionOverride.parseAll(args.all("option"))
        try generator.check()
        if let catalog = args.value("catalog") {
            // --catalog is replay's input: gen never writes over one by surprise.
            if !args.flag("force"), FileIO.exists(catalog) {
                throw PopsimError.usage("gen: --catalog \(JSONValue.quoted(catalog)) exists: gen --trace writes a new catalog there "
                                        + "(replay's --catalog reads it); name a new file, or add --force to replace it")
            }
            do {
                try FileIO.writeAtomically(TraceGenerator.catalog, to: catalog)
            } catch {
                return console.report(.io(path: catalog, reason: error.reason))
            }
        }
        let text = try generator.csv()
        return RunCommand.emit(text, to: args.value("output"), console: &console)
    }

    static func number(_ args: Arguments, _ name: String, default value: Int, minimum: Int, maximum: Int) throws(PopsimError) -> Int {
        guard let text = args.value(name) else { return value }
        guard let n = Int(text), n >= minimum, n <= maximum else {
            let range = maximum == Int.max ? "an integer >= \(minimum)" : "an integer from \(minimum) to \(maximum)"
            throw PopsimError.usage("gen: --\(name): expected \(range), got \(JSONValue.quoted(text))")
        }
        return n
    }

    /// `kind=weight,kind=weight`; kinds not named keep weight 0. A kind is any action keyword.
    static func parseMix(_ text: String?) throws(PopsimError) -> [(ActionKind, Int)] {
        guard let text else { return ScenarioGenerator.defaultMix }
        let kinds = ActionKind.allCases.map(\.keyword)
        var mix: [(ActionKind, Int)] = []
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let kind = ActionKind(rawValue: pair[0]), let weight = Int(pair[1]), weight >= 0 else {
                throw PopsimError.usage("gen: --mix: expected kind=weight with a kind among \(kinds.joined(separator: ", ")), got \(JSONValue.quoted(String(part)))")
            }
            mix.append((kind, weight))
        }
        guard mix.contains(where: { $0.1 > 0 }) else { throw PopsimError.usage("gen: --mix: every weight is 0") }
        return mix
    }
}
