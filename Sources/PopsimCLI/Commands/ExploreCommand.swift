import Dispatch
import PopsimCore
import PopsimReports

/// `popsim explore FILE… [--strategy S…|all] [--budget N] [--seed S] [--jobs J] [--save DIR]
/// [--format text|json]`: runs the variants of each scenario's uncertain arrivals and judges its
/// `expect` in each (docs/cli.md).
///
/// Contract: the variants are all of them when they fit `--budget` (default 10,000, fewer for a
/// scenario whose runs are long: `ExploreBudget`, said in the report), else a
/// seeded sample with both ends of every window; per strategy × property, holds in all, or fails
/// in K with the smallest counterexample. The same input, seed and options print the same bytes
/// with any `--jobs`. Exit 0 when every property holds in every variant run, 1 when one fails, 2
/// for bad usage or input.
enum ExploreCommand {
    static let defaultBudget = ExploreBudget.standard
    static let defaultSeed: UInt64 = 1
    /// A billion variants at about 100,000 a second is three hours a core: beyond, shard it.
    static let maxBudget = 1_000_000_000

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "explore", console: &console) else { return .success }
        guard !args.positionals.isEmpty else { throw PopsimError.usage("explore: expected scenario files; see 'popsim help explore'") }
        let budget = try Guards.positive(args, "budget", "explore") ?? defaultBudget
        guard budget <= maxBudget else {
            throw PopsimError.usage("explore: --budget: expected an integer from 1 to \(maxBudget), got \(budget); split a larger exploration with --shard")
        }
        let seed = try Guards.positive(args, "seed", "explore").map(UInt64.init) ?? defaultSeed
        let jobs = try CheckCommand.jobCount(args, command: "explore")
        let format = try args.choice("format", ReportFormat.self, command: "explore", default: .text)
        if args.flag("merge") { return try merge(args.positionals, format: format, console: &console) }
        let shard = try Shard.option(args, command: "explore")
        let guards = try Guards(args, command: "explore")
        guards.arm(console)
        let strategies = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        var outcome = ExitCode.success
        var reports: [ExploreReport] = []
        var saved = Set<String>()
        StopRequest.stoppable {
            for path in args.positionals where StopRequest.requested == nil {
                do throws(PopsimError) {
                    let report = try exploreFile(path, args: args, budget: budget, seed: seed, jobs: jobs, shard: shard, guards: guards,
                                                 strategies: strategies, saved: &saved, console: &console)
                    if report.anyFailure { outcome = outcome.worst(.difference) }
                    if report.incomplete != nil { outcome = outcome.worst(.badInput) }
                    if format == .text { console.out((reports.isEmpty ? "" : "\n") + report.text()) }
                    reports.append(report)
                } catch {
                    outcome = outcome.worst(console.report(error, context: "explore"))
                }
            }
        }
        if format == .json {
            console.out(reports.count == 1 ? reports[0].json() : "[" + reports.map { $0.json() }.joined(separator: ",") + "]\n")
        }
        return outcome
    }

    /// One scenario explored (and its counterexamples saved with `--save`); marked incomplete
    /// when a stop request (StopRequest) cut it short.
    static func exploreFile(_ path: String, args: Arguments, budget: Int, seed: UInt64, jobs: Int, shard: Shard?, guards: Guards,
                            strategies: StrategySet, saved: inout Set<String>, console: inout Console) throws(PopsimError) -> ExploreReport {
        var strategies = strategies
        var digest = ""
        let scenario = try ScenarioSource.load(path, maxBytes: guards.maxBytes, strategies: &strategies) { digest = sha256Hex($0.copy) }
        // No --budget: the default, lowered for a scenario whose runs are long (and said so).
        var budget = budget, lowered: ExploreReport.Lowered?
        if args.value("budget") == nil {
            let bounded = ExploreBudget.variants(for: scenario, strategies: try Self.strategies(args, scenario, strategies).count)
            if bounded < budget {
                lowered = ExploreReport.Lowered(budget: bounded, from: budget)
                budget = bounded
            }
        }
        var (outcomes, report) = try explore(scenario, args: args, budget: budget, seed: seed, jobs: jobs, shard: shard,
                                             limits: guards.limits, strategies: strategies, progress: console.progressLine())
        report.lowered = lowered
        report.exploration = identity(of: report, scenarioDigest: digest, scenario: scenario, budget: budget, strategies: strategies)
        if outcomes.contains(where: \.stopped) {
            report.incomplete = (StopRequest.requested ?? .timedOut).text(timeout: guards.timeout)
        }
        if let dir = args.value("save") {
            try save(outcomes, scenario: scenario, path: path, to: dir, strategies: strategies, saved: &saved, console: &console)
        }
        return report
    }

    /// What makes an exploration the one it is (`ExploreReport.exploration`): the scenario's
    /// bytes, each strategy with the options it ran with (a policy's rules among them), the
    /// budget, the seed and the plan, digested; the same for every shard of one exploration.
    static func identity(of report: ExploreReport, scenarioDigest: String, scenario: Scenario, budget: Int,
                         strategies: StrategySet) -> String {
        var parts = ["popsim explore 1", scenarioDigest, "budget \(budget)", "seed \(report.seed)",
                     "plan \(report.possible) \(report.exhaustive)"]
        for s in report.strategies {
            let options = (try? RunConfiguration.resolve(scenario, strategy: s.name, overrides: [], strategies: strategies))?
                .options.settings.map { "\($0.name)=\($0.value)" } ?? []
            parts.append("strategy \(s.name) " + options.joined(separator: " "))
        }
        return sha256Hex(Array(parts.joined(separator: "\n").utf8))
    }

    /// The strategies asked for: `--strategy` (with `all`), else the file's own.
    static func strategies(_ args: Arguments, _ scenario: Scenario, _ set: StrategySet) throws(PopsimError) -> [String] {
        let asked = StrategyRegistry.expandingAll(args.all("strategy"))
        for name in asked where set.entry(named: name) == nil { throw PopsimError.configuration(.unknownStrategy(name)) }
        if !asked.isEmpty { return asked }
        if let named = StrategyArguments.defaultStrategy(args) { return [named] }
        guard let own = scenario.strategy else { throw PopsimError.configuration(.noStrategy(file: scenario.file)) }
        return [own]
    }

    static func explore(_ scenario: Scenario, args: Arguments, budget: Int, seed: UInt64, jobs: Int, shard: Shard?,
                        limits: RunLimits, strategies set: StrategySet, progress: ProgressLine? = nil) throws(PopsimError) -> ([Explorer.Outcome], ExploreReport) {
        let names = try strategies(args, scenario, set)
        let explorer = Explorer(scenario, limits: limits, strategies: set)
        let plan = explorer.space.plan(budget: budget, seed: seed)
        guard !scenario.expectations.isEmpty else {
            throw PopsimError.usage("explore: \(scenario.file) has no \"expect\": no property to judge (see docs/scenario-format.md)")
        }
        // This shard's part of the plan (all of it unsharded), cut into `jobs` parts judged in
        // parallel and merged.
        let step = shard?.count ?? 1, first = shard?.index ?? 0
        let mine = plan.count > first ? (plan.count - first + step - 1) / step : 0
        let parts = max(1, min(jobs, mine))
        let tasks = names.flatMap { name in (0..<parts).map { (name, mine * $0 / parts ..< mine * ($0 + 1) / parts) } }
        let slots = Slots<Result<Explorer.Tally, PopsimError>>(count: tasks.count)
        let counter = ExploreProgress(total: mine.times(names.count), line: progress)
        let workers = max(1, min(jobs, tasks.count))
        // The first failure in task order is what is reported: tasks after one that failed are
        // skipped (their slots stay empty) or stopped between variants (a partial tally); the
        // merge below throws at that failure before it reaches either.
        let failed = FirstFailure()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: tasks.count, by: workers) where !failed.precedes(i) {
                let (name, range) = tasks[i]
                let result = Result { () throws(PopsimError) -> Explorer.Tally in
                    // A plug-in's variant takes milliseconds: progress after each, not every 256.
                    try explorer.judge(plan, range.lazy.map { first + $0 * step }, strategy: name,
                                       progressEvery: name.hasPrefix(StrategySet.execPrefix) ? 1 : 256,
                                       shouldStop: { StopRequest.requested != nil || failed.precedes(i) }, progress: counter.add)
                }
                if case .failure = result { failed.note(i) }
                slots.set(i, result)
            }
        }
        progress?.finish()
        var outcomes: [Explorer.Outcome] = []
        for (n, name) in names.enumerated() {
            var tally = Explorer.Tally(properties: scenario.expectations.count)
            for part in 0..<parts {
                guard let result = slots.get(n * parts + part) else { throw PopsimError.internalError("explore: a part was not judged") }
                tally.merge(try result.get())
            }
            outcomes.append(try explorer.outcome(tally, plan: plan, strategy: name))
        }
        let report = ExploreReport(file: scenario.file, possible: explorer.space.count, run: mine, exhaustive: plan.exhaustive,
                                   seed: seed, shard: shard?.text, outcomes: outcomes)
        return (outcomes, report)
    }

    /// `--save DIR`: each smallest counterexample as a plain scenario `check` runs as it is,
    /// `<stem>.<label>.<n>.json` (n: the property's place in `expect`, from 1), DIR made if need
    /// be. A counterexample that breaks several properties is written once, under the first.
    /// A name this run already wrote (scenarios or plug-ins of the same file name) gets `-2`,
    /// `-3`, … before `.json`: nothing saved in one run is overwritten (`saved`).
    static func save(_ outcomes: [Explorer.Outcome], scenario: Scenario, path: String, to dir: String,
                     strategies: StrategySet, saved: inout Set<String>, console: inout Console) throws(PopsimError) {
        let bytes: [UInt8]
        let root: JSONValue
        do {
            bytes = try FileIO.read(path)
            root = try JSONReader.parse(bytes)
        } catch {
            throw PopsimError.io(path: path, reason: "cannot read it again to save counterexamples")
        }
        do {
            try FileIO.makeDirectories(dir)
        } catch {
            throw PopsimError.io(path: dir, reason: error.reason)
        }
        let stem = ScenarioLoader.defaultName(path)
        for o in outcomes {
            var written = Set<String>()
            for (n, p) in o.properties.enumerated() {
                guard let c = p.counterexample else { continue }
                let label = strategies.goldenLabel(o.strategy)
                let base = (dir.hasSuffix("/") ? dir : dir + "/") + "\(stem).\(label).\(n + 1)"
                var target = base + ".json"
                var again = 2
                while saved.contains(target) {
                    target = base + "-\(again).json"
                    again += 1
                }
                // Under an entry with settings of its own (a policy file's rules), the options the run
                // used (the entry's, then the scenario's) are written in.
                let own = !(strategies.entry(named: o.strategy)?.baseSettings.isEmpty ?? true)
                let options = own ? try RunConfiguration.resolve(scenario, strategy: o.strategy, overrides: [], strategies: strategies).options.settings : nil
                let strategy = spelling(o.strategy, scenario: scenario, from: dir)
                func text(_ property: String) -> String {
                    CounterexampleFile.text(root, scenario: scenario, variant: c.variant, strategy: strategy, options: options,
                                            property: property, sameStrategy: o.strategy == scenario.strategy)
                }
                guard written.insert(text("")).inserted else { continue }
                saved.insert(target)
                do {
                    try FileIO.writeAtomically(text(p.expectation.text), to: target)
                } catch {
                    throw PopsimError.io(path: target, reason: error.reason)
                }
                console.error("saved: \(target)")
            }
        }
    }

    /// How a saved file in `dir` names `strategy`: a plug-in by its path from `dir`.
    static func spelling(_ strategy: String, scenario: Scenario, from dir: String) -> String {
        guard let path = strategy.dropPrefix(StrategySet.execPrefix) else { return strategy }
        let actual = strategy == scenario.strategy ? ScenarioSource.besideScenario(scenario.file, path) : path
        return StrategySet.execPrefix + FileIO.relativePath(actual, from: dir)
    }

    /// `--merge REPORT…`: the JSON reports of the shards of one exploration, as one report. A
    /// shard of several scenarios writes an array of reports: each scenario's shards are merged
    /// apart, in the order the scenarios first appear, and printed as `explore` prints several.
    static func merge(_ paths: [String], format: ReportFormat, console: inout Console) throws(PopsimError) -> ExitCode {
        guard !paths.isEmpty else { throw PopsimError.usage("explore: --merge: expected the JSON reports of the shards") }
        var groups: [(file: String, reports: [ExploreReport])] = []
        for path in paths {
            let root: JSONValue
            do {
                root = try JSONReader.parse(try FileIO.read(path))
            } catch {
                throw PopsimError.io(path: path, reason: "cannot read an explore report")
            }
            let items: [JSONValue]
            if case .array(let list) = root.kind { items = list } else { items = [root] }
            for item in items {
                guard let report = ExploreReport(json: item) else {
                    throw PopsimError.io(path: path, reason: "not the JSON report of 'popsim explore --shard I/N --format json'")
                }
                if let g = groups.firstIndex(where: { $0.file == report.file }) {
                    groups[g].reports.append(report)
                } else {
                    groups.append((report.file, [report]))
                }
            }
        }
        var merged: [ExploreReport] = []
        for group in groups {
            do {
                merged.append(try ExploreReport.merging(group.reports))
            } catch {
                let scenario = groups.count > 1 ? " (\(TerminalText.safe(group.file)))" : ""
                throw PopsimError.usage("explore: --merge\(scenario): \(error.reason)")
            }
        }
        if format == .json {
            console.out(merged.count == 1 ? merged[0].json() : "[" + merged.map { $0.json() }.joined(separator: ",") + "]\n")
        } else {
            console.out(merged.map { $0.text() }.joined(separator: "\n"))
        }
        return merged.contains(where: \.anyFailure) ? .difference : .success
    }
}
