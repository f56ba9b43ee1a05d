import Dispatch
import PopsimCore
import PopsimReports

/// `popsim explore FILE… [--strategy S…|all] [--budget N] [--seed S] [--jobs J] [--save DIR]
/// [--format text|json]`: runs the variants of each scenario's uncertain arrivals and judges its
/// `expect` in each (docs/cli.md).
///
/// Contract: the variants are all of them when they fit `--budget` (default 10,000), else a
/// seeded sample with both ends of every window; per strategy × property, holds in all, or fails
/// in K with the smallest counterexample. The same input, seed and options print the same bytes
/// with any `--jobs`. Exit 0 when every property holds in every variant run, 1 when one fails, 2
/// for bad usage or input.
enum ExploreCommand {
    static let specs: [Arguments.Spec] = [
        .init(name: "strategy", takesValue: true, repeatable: true),
        .init(name: "budget", takesValue: true),
        .init(name: "seed", takesValue: true),
        .init(name: "jobs", takesValue: true),
        .init(name: "save", takesValue: true),
        .init(name: "format", takesValue: true),
        .init(name: "help", takesValue: false),
    ] + Guards.specs

    static let defaultBudget = 10_000

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "explore", specs: specs, console: &console) else { return .success }
        guard !args.positionals.isEmpty else { throw PopsimError.usage("explore: expected scenario files; see 'popsim help explore'") }
        let budget = try Guards.positive(args, "budget", "explore") ?? defaultBudget
        let seed = try Guards.positive(args, "seed", "explore").map(UInt64.init) ?? 1
        let jobs = try CheckCommand.jobCount(args)
        let format = try args.choice("format", ReportFormat.self, command: "explore", default: .text)
        let guards = try Guards(args, command: "explore")
        guards.arm(console)
        var outcome = ExitCode.success
        var reports: [ExploreReport] = []
        for path in args.positionals {
            do {
                let scenario = try ScenarioSource.load(path, maxBytes: guards.maxBytes)
                let report = try explore(scenario, args: args, budget: budget, seed: seed, jobs: jobs, limits: guards.limits)
                if let dir = args.value("save") { try save(report, scenario: scenario, path: path, to: dir, console: &console) }
                if report.anyFailure { outcome = outcome.worst(.difference) }
                if format == .text { console.out((reports.isEmpty ? "" : "\n") + report.text()) }
                reports.append(report)
            } catch {
                outcome = outcome.worst(console.report(error, context: "explore"))
            }
        }
        if format == .json {
            console.out(reports.count == 1 ? reports[0].json() : "[" + reports.map { $0.json() }.joined(separator: ",") + "]\n")
        }
        return outcome
    }

    /// The strategies asked for: `--strategy` (with `all`), else the file's own.
    static func strategies(_ args: Arguments, _ scenario: Scenario) throws(PopsimError) -> [String] {
        let asked = args.all("strategy").flatMap { $0 == "all" ? StrategyRegistry.names : [$0] }
        for name in asked where StrategyRegistry.entry(named: name) == nil { throw PopsimError.configuration(.unknownStrategy(name)) }
        if !asked.isEmpty { return asked }
        guard let own = scenario.strategy else { throw PopsimError.configuration(.noStrategy(file: scenario.file)) }
        return [own]
    }

    static func explore(_ scenario: Scenario, args: Arguments, budget: Int, seed: UInt64, jobs: Int,
                        limits: RunLimits) throws(PopsimError) -> ExploreReport {
        let names = try strategies(args, scenario)
        let explorer = Explorer(scenario, limits: limits)
        let (plan, exhaustive) = explorer.space.plan(budget: budget, seed: seed)
        // Every strategy's plan cut into `jobs` parts, judged in parallel, merged in order.
        let parts = max(1, min(jobs, plan.count))
        let tasks = names.flatMap { name in (0..<parts).map { (name, plan.count * $0 / parts ..< plan.count * ($0 + 1) / parts) } }
        let slots = Slots<Result<Explorer.Tally, PopsimError>>(count: tasks.count)
        DispatchQueue.concurrentPerform(iterations: tasks.count) { i in
            let (name, range) = tasks[i]
            slots.set(i, Result { () throws(PopsimError) -> Explorer.Tally in try explorer.judge(plan, range, strategy: name) })
        }
        var outcomes: [Explorer.Outcome] = []
        for (n, name) in names.enumerated() {
            var tally = Explorer.Tally(properties: scenario.expectations.count)
            for part in 0..<parts {
                guard let result = slots.get(n * parts + part) else { throw PopsimError.internalError("explore: a part was not judged") }
                tally.merge(try result.get())
            }
            outcomes.append(try explorer.outcome(tally, plan: plan, strategy: name))
        }
        return ExploreReport(file: scenario.file, possible: explorer.space.count, run: plan.count, exhaustive: exhaustive,
                             seed: seed, outcomes: outcomes)
    }

    /// `--save DIR`: each smallest counterexample as a plain scenario, `<stem>.<strategy>.<n>.json`
    /// (n: the property's place in `expect`, from 1).
    static func save(_ report: ExploreReport, scenario: Scenario, path: String, to dir: String,
                     console: inout Console) throws(PopsimError) {
        let bytes: [UInt8]
        let root: JSONValue
        do {
            bytes = try FileIO.read(path)
            root = try JSONReader.parse(bytes)
        } catch {
            throw PopsimError.io(path: path, reason: "cannot read it again to save counterexamples")
        }
        let stem = ScenarioSource.stem(of: path)
        for o in report.outcomes {
            for (n, p) in o.properties.enumerated() {
                guard let c = p.counterexample else { continue }
                let target = (dir.hasSuffix("/") ? dir : dir + "/") + "\(stem).\(o.strategy).\(n + 1).json"
                let text = CounterexampleFile.text(root, scenario: scenario, variant: c.variant, strategy: o.strategy,
                                                   property: p.expectation.text)
                do {
                    try FileIO.writeAtomically(text, to: target)
                } catch {
                    throw PopsimError.io(path: target, reason: error.reason)
                }
                console.error("saved: \(target)")
            }
        }
    }
}

