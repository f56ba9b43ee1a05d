import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// `popsim fit TRACE --catalog C [--output FITTED.json]`: the model of the team's own scheduler
/// that agrees best with what production showed, searched over the built-in strategies and
/// `policy`'s knobs, validated on users held back (docs/fit.md).
///
/// Contract: the same trace, catalog, seed, budget and holdout print the same bytes for any
/// `--jobs`, and shards merged with `--merge` print the unsharded bytes. Exit 0 when the search
/// ran to its end; 2 for bad usage or input, a plug-in that failed, or a search cut short
/// (`--timeout`, a signal: the best so far is printed, marked incomplete, and no catalog is
/// written); 70 for popsim's own bug.
enum FitCommand {
    enum Format: String, CaseIterable { case text, markdown, json, csv }

    static let defaultBudget = 3_000
    static let maxBudget = 10_000_000
    static let defaultSeed: UInt64 = 1
    static let defaultHoldout = "0.3"

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "fit", console: &console) else { return .success }
        let format = try args.choice("format", Format.self, command: "fit", default: .text)
        try OutputGuard.refuse(output: args.value("output"), option: "--output", inputs: OutputGuard.inputs(args), command: "fit")
        if args.flag("merge") {
            for name in ["save", "budget", "holdout", "seed", "search", "strategy", "shard", "jobs", "sweep"] where args.value(name) != nil {
                throw PopsimError.usage("fit: --merge: --\(name) belongs to the shards' runs, not to their merge")
            }
            return try merge(args, format: format, console: &console)
        }
        guard args.positionals.count == 1, let tracePath = args.positionals.first else {
            throw PopsimError.usage("fit: expected exactly one trace (a file, or - for standard input); see 'popsim help fit'")
        }
        guard let catalogPath = args.value("catalog") else {
            throw PopsimError.usage("fit: expected --catalog FILE (the popups, state and expect of the app; see docs/fit.md)")
        }
        let budget = try Guards.positive(args, "budget", "fit") ?? defaultBudget
        guard budget <= maxBudget else { throw PopsimError.usage("fit: --budget: expected an integer from 1 to \(maxBudget), got \(budget)") }
        let seed = try seedOption(args)
        let (holdout, holdoutText) = try holdoutOption(args)
        let jobs = try CheckCommand.jobCount(args, command: "fit")
        let shard = try Shard.option(args, command: "fit")
        if shard != nil, args.value("output") != nil || args.value("save") != nil {
            throw PopsimError.usage("fit: --shard: a shard's best is not the fit's; write --output and --save after fit --merge "
                                    + "(--output), or replay the fitted catalog with --save")
        }
        let sweep = try ReplayCommand.sweeps(args, command: "fit")
        if shard != nil, !sweep.isEmpty {
            throw PopsimError.usage("fit: --shard: the what-if (--sweep) needs every start's models; fit unsharded, or replay the merged fit's catalog with --sweep")
        }
        let guards = try Guards(args, command: "fit")
        guards.arm(console)
        var set = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        let catalog: Scenario, catalogBytes: [UInt8]
        switch ReplayCommand.loadCatalog(catalogPath, maxBytes: guards.maxBytes, strategies: &set) {
        case .success(let loaded): (catalog, catalogBytes) = loaded
        case .failure(let error): return console.report(error)
        }
        let scored = try scoredCandidates(args, catalog: catalog, strategies: modelStrategies(set))
        let layout = try ReplayCommand.traceLayout(args, path: tracePath, catalog: catalog, maxBytes: guards.maxBytes, command: "fit")
        let maxErrors = try ReplayCommand.maxErrorsOption(args, command: "fit")
        let progress = console.progressLine()
        let trace = try FitTrace.read(tracePath, layout: layout.0, formatKnown: layout.known, catalog: catalog, maxErrors: maxErrors,
                                      progress: progress)
        progress?.update("")
        for error in trace.errors { console.error(TraceErrorText.line(error)) }
        if trace.errorCount > maxErrors { return .badInput }
        if trace.users.isEmpty {
            return console.report(.io(path: tracePath, reason: "no user to fit on: " + (trace.rows > 0 ? "every user was left out with a bad row" : "the trace has no rows")))
        }
        if let stop = TraceWarnings.say(trace.warnings, path: tracePath, strict: args.flag("strict"), console: &console) { return stop }
        guard trace.sawShown else {
            return console.report(.io(path: tracePath, reason: "no 'shown' row: fit needs what production showed (map your impression event to shown)"))
        }
        // Every candidate is its strategy's defaults and the options it names, whatever model the
        // catalog names: what is scored is what `--output` writes.
        var model = catalog
        model.strategy = nil
        let data: FitData
        do {
            data = try FitData(catalog: model, users: trace.users, file: tracePath, holdout: holdout, seed: seed)
        } catch {
            return console.report(.replay(error))
        }
        guard !data.fit.isEmpty else {
            return console.report(.io(path: tracePath, reason: "every one of its \(data.users.count) users is held out: lower --holdout"))
        }
        let entries = try searched(args, sweep: sweep)
        try FitWhatIfRun.check(sweep, entries: entries, catalog: catalog, strategies: modelStrategies(set))
        let space = FitSpace(catalog: catalog, entries: entries, scored: scored)
        guard budget >= space.starts.count else {
            throw PopsimError.usage("fit: --budget: expected at least \(space.starts.count) (an evaluation for each start of the search), got \(budget)")
        }
        let search = FitSearch(evaluator: FitEvaluator(data: data, strategies: modelStrategies(set), limits: guards.limits), space: space)
        let (results, failure, stopped) = StopRequest.stoppable {
            run(search, budget: budget, shard: shard, jobs: jobs, progress: progress)
        }
        progress?.finish()
        if let failure { return console.report(.replay(failure)) }
        let settings = try settingsDigest(layout: layout.0, searched: space.starts.map(\.label), holdout: holdoutText, seed: seed, budget: budget, limits: guards.limits,
                                          maxErrors: maxErrors, scored: scored, maxBytes: guards.maxBytes)
        var report = FitReport(trace: tracePath, traceDigest: trace.digest, catalog: catalogPath, catalogDigest: "sha256:" + sha256Hex(catalogBytes),
                               settings: settings, shard: shard?.text, users: data.users.count, fitUsers: data.fit.count,
                               testUsers: data.test.count, holdout: holdoutText, seed: seed, budget: budget,
                               starts: space.starts.map(\.label), searchedStarts: space.starts.filter { !$0.scoredOnly }.count, results: results)
        if stopped { report.incomplete = (StopRequest.requested ?? .timedOut).text(timeout: guards.timeout) }
        if report.incomplete == nil, !sweep.isEmpty, !report.fitting.isEmpty {
            switch try FitWhatIfRun.run(report, sweep: sweep, users: trace.users, catalog: model, strategies: modelStrategies(set), limits: guards.limits,
                                    jobs: jobs, file: tracePath, progress: progress) {
            case .success(let whatIf): report.whatIf = whatIf
            case .failure(let failure): return console.report(.replay(failure))
            }
            progress?.finish()
        }
        return try finish(report, catalogBytes: catalogBytes, data: (data, trace.users), strategies: set, limits: guards.limits, args: args, format: format,
                          console: &console)
    }

    /// The report printed, the fitted catalog and the disagreeing users written (a complete fit
    /// only), and the exit code.
    static func finish(_ given: FitReport, catalogBytes: [UInt8], data: (FitData, [Replayer.User])?, strategies: StrategySet, limits: RunLimits, args: Arguments,
                       format: Format, console: inout Console) throws(PopsimError) -> ExitCode {
        var report = given
        if report.incomplete == nil, let best = report.best {
            // The users first: a catalog is written only when everything else was.
            if let dir = args.value("save"), let data {
                try FitSave.write(best, users: data.1, data: data.0, report: report, catalogBytes: catalogBytes,
                                  strategies: modelStrategies(strategies), limits: limits, to: dir, inputs: OutputGuard.inputs(args))
            }
            if let path = args.value("output") {
                try writeCatalog(best, report: report, catalogBytes: catalogBytes, strategies: modelStrategies(strategies), to: path)
                report.output = path
            }
        }
        let text: String
        switch format {
        case .text: text = FitText.render(report, width: console.columns)
        case .markdown: text = FitText.markdown(report)
        case .json: text = FitJSON.render(report)
        case .csv: text = report.whatIf.map(FitWhatIfText.csv) ?? FitText.csv(report)
        }
        console.out(text)
        // A shard with no start (fewer starts than shards) did its part: nothing.
        if report.best == nil, report.incomplete == nil, report.shard == nil || !report.results.isEmpty {
            console.error("popsim: fit: no candidate could run on \(report.catalog): nothing was fitted")
            return .badInput
        }
        return report.incomplete == nil ? .success : .badInput
    }

    /// Runs this shard's starts (all of them unsharded) on `jobs` threads, heaviest first; each
    /// start's result is the same on any thread. The first failure by start index is kept.
    static func run(_ search: FitSearch, budget: Int, shard: Shard?, jobs: Int,
                    progress: ProgressLine?) -> ([FitSearch.StartResult], ReplayFailure?, Bool) {
        let shares = search.shares(budget: budget)
        let starts = search.space.starts
        let mine = starts.indices.filter { shard?.contains(item: $0) ?? true }
        let order = mine.sorted { (starts[$0].weight, -$0) > (starts[$1].weight, -$1) }
        let slots = Slots<Result<FitSearch.StartResult, ReplayFailure>>(count: order.count)
        let next = System.Locked(0)
        let failed = System.Locked(false)
        let done = System.Locked((evaluations: 0, starts: 0))
        let total = mine.reduce(0) { $0 + shares[$1] }
        let shouldStop: @Sendable () -> Bool = { StopRequest.isRequested || failed.withLock { $0 } }
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, order.count))) { _ in
            while true {
                let k = next.withLock { n -> Int in
                    n += 1
                    return n - 1
                }
                guard k < order.count else { return }
                let s = order[k]
                let result = Result { () throws(ReplayFailure) -> FitSearch.StartResult in
                    try search.run(start: s, budget: shares[s], shouldStop: shouldStop) { n in
                        let now = done.withLock { d -> (Int, Int) in
                            d.evaluations += n
                            return (d.evaluations, d.starts)
                        }
                        progress?.update("fit: \(now.0) of at most \(total) evaluations, \(now.1) of \(order.count) starts done")
                    }
                }
                if case .failure = result { failed.withLock { $0 = true } }
                done.withLock { $0.starts += 1 }
                slots.set(k, result)
            }
        }
        var results: [FitSearch.StartResult] = []
        var failures: [(Int, ReplayFailure)] = []
        for k in order.indices {
            switch slots.get(k) {
            case .success(let r)?: results.append(r)
            case .failure(let f)?: failures.append((order[k], f))
            case nil: break
            }
        }
        let failure = failures.min { $0.0 < $1.0 }?.1
        return (results.sorted { $0.start < $1.start }, failure, results.contains(where: \.stopped) || StopRequest.isRequested)
    }

    /// What decides a fit besides the trace and the catalog, digested (`--merge` refuses shards
    /// that differ).
    static func settingsDigest(layout: TraceLayout, searched: [String], holdout: String, seed: UInt64, budget: Int, limits: RunLimits, maxErrors: Int,
                               scored: [FitCandidate], maxBytes: Int) throws(PopsimError) -> String {
        var lines = ["popsim fit 1", "holdout \(holdout)", "seed \(seed)", "budget \(budget)", "search " + searched.joined(separator: ","),
                     try ReplayCommand.settingsDigest(layout: layout, columns: [], limits: limits, maxErrors: maxErrors, maxBytes: maxBytes)]
        for c in scored {
            lines.append("scored \(c.label)")
            if c.strategy.hasPrefix(StrategySet.execPrefix) {
                let path = String(c.strategy.dropFirst(StrategySet.execPrefix.count).prefix { $0 != " " })
                lines.append("plug-in \(sha256Hex((try? FileIO.read(path, maxBytes: maxBytes)) ?? []))")
            }
        }
        return "sha256:" + sha256Hex(Array(lines.joined(separator: "\n").utf8))
    }

    static func writeCatalog(_ best: FitSearch.Finalist, report: FitReport, catalogBytes: [UInt8], strategies: StrategySet,
                             to path: String) throws(PopsimError) {
        let root = try ReplaySave.catalogRoot(catalogBytes, path: report.catalog)
        // The best as read back from shards' reports is checked like any strategy named by a user.
        var catalog: Scenario
        switch ScenarioLoader.load(catalogBytes, file: report.catalog, catalog: StrategyRegistry.catalog) {
        case .success(let loaded): catalog = loaded
        case .failure(let errors): throw PopsimError.input(errors)
        }
        catalog.strategy = nil
        let entry: StrategyEntry
        do throws(PopsimError) {
            entry = try RunConfiguration.resolve(catalog, strategy: best.candidate.strategy, overrides: best.candidate.overrides,
                                                 strategies: strategies).entry
        } catch {
            guard case .configuration(let problem) = error else { throw error }
            throw PopsimError.usage("fit: the best, \(best.candidate.label), does not run \(report.catalog): " + ErrorReport.words(problem))
        }
        let note = "Fitted by popsim fit on \(report.trace): agrees with production for "
            + FitText.percent(best.fit) + " of \(best.fit.users) fit users"
            + (best.test.users > 0 ? " and " + FitText.percent(best.test) + " of \(best.test.users) held out." : ".")
        let text = FittedCatalog.text(root, candidate: best.candidate, entry: entry, note: note)
        do {
            try FileIO.writeAtomically(text, to: path)
        } catch {
            throw PopsimError.io(path: path, reason: error.reason)
        }
    }

    /// `--merge REPORT…`: shards of one fit put together; `--output` (with `--catalog`, the
    /// catalog the shards fitted) writes the fitted catalog.
    static func merge(_ args: Arguments, format: Format, console: inout Console) throws(PopsimError) -> ExitCode {
        guard !args.positionals.isEmpty else { throw PopsimError.usage("fit: --merge: expected the JSON reports of the shards") }
        let reports = try ShardReports.read(args.positionals, parse: FitJSON.parse)
        let merged: FitReport
        switch FitJSON.merge(reports, paths: args.positionals) {
        case .success(let r): merged = r
        case .failure(let problem): throw PopsimError.usage("fit: --merge: " + problem.message)
        }
        var catalogBytes: [UInt8] = []
        var set = try StrategyArguments.set(args)
        if args.value("output") != nil {
            guard let path = args.value("catalog") else {
                throw PopsimError.usage("fit: --merge --output: expected --catalog FILE, the catalog the shards fitted")
            }
            do {
                _ = try ScenarioSource.load(path, strategies: &set, read: { catalogBytes = $0.copy })
            } catch {
                return console.report(error)
            }
            guard "sha256:" + sha256Hex(catalogBytes) == merged.catalogDigest else {
                throw PopsimError.usage("fit: --merge: --catalog \(JSONValue.quoted(path)) is not the catalog the shards fitted (\(merged.catalog))")
            }
        }
        return try finish(merged, catalogBytes: catalogBytes, data: nil, strategies: set, limits: RunLimits(), args: args, format: format,
                          console: &console)
    }
}
