import Dispatch
import PopsimCore
import PopsimReports

/// `popsim replay TRACE --catalog C [--strategy S…|all]`: every user of a trace run under each
/// strategy, added up side by side (docs/replay.md).
///
/// Contract: the same trace and catalog give the same bytes for any `--jobs`, any order of the
/// users' rows, and any `--shard` split merged back. A bad row is a located error and exit 2
/// with nothing written, unless `--max-errors N` lets up to N bad rows (and their users) be
/// skipped and counted. A plug-in's failure or popsim's own bug in a user's run stops it with
/// run's words (exit 2 or 70, nothing written); a user whose run does not settle is counted,
/// named and makes the exit 1. Exit 0 otherwise: a failing property is a share of users, not a
/// failure.
enum ReplayCommand {
    /// Rows kept in memory before an ungrouped trace is partitioned (`--partition-rows`).
    static let defaultPartitionRows = 4_000_000
    enum Format: String, CaseIterable { case text, markdown, json, csv, html, svg }


    /// Users replayed together, one part per job.
    static let batchSize = 4096

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "replay", console: &console) else { return .success }
        let format = try args.choice("format", Format.self, command: "replay", default: .text)
        if args.flag("merge") { return try merge(args, format: format, console: &console) }
        guard args.positionals.count == 1, let tracePath = args.positionals.first else {
            throw PopsimError.usage("replay: expected exactly one trace (a file, or - for standard input); see 'popsim help replay'")
        }
        guard let catalogPath = args.value("catalog") else {
            throw PopsimError.usage("replay: expected --catalog FILE (the popups, state and expect of the app; see docs/replay.md)")
        }
        let guards = try Guards(args, command: "replay")
        guards.arm(console)
        var set = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        var catalogBytes: [UInt8] = []
        let catalog: Scenario
        do {
            catalog = try ScenarioSource.load(catalogPath, maxBytes: guards.maxBytes, strategies: &set, read: { catalogBytes = $0.copy })
        } catch {
            return console.report(error)
        }
        if let first = catalog.events.first {
            return console.report(.input(LoadErrors([LoadError(file: catalogPath, location: first.location, path: JSONPath.root.appending("events"),
                                                               problem: .misplaced("events", hint: "a catalog has no events: the trace gives each user's"))])))
        }
        let sweep = try sweeps(args)
        let columns = try replayColumns(args, catalog: catalog, strategies: set, sweep: sweep)
        let layout = try traceLayout(args, path: tracePath)
        let shard = try Shard.parse(args.value("shard"), command: "replay")
        let maxErrors = try nonNegative(args, "max-errors") ?? 0
        let jobs = try CheckCommand.jobCount(args, command: "replay")
        let replayer = Replayer(catalog: catalog, columns: columns, limits: guards.limits, file: tracePath)
        var pass = ReplayPass(replayer: replayer, decoder: TraceDecoder(file: tracePath, layout: layout, catalog: catalog),
                              shard: shard, grouped: args.flag("grouped"),
                              maxErrors: maxErrors, jobs: jobs, saving: args.value("save") != nil,
                              partitionRows: try nonNegative(args, "partition-rows") ?? defaultPartitionRows, environment: console.environment)
        var source = try TraceSource(tracePath)
        defer { source.close() }
        let progress = console.progressLine()
        try pass.read(&source, progress: progress)
        progress?.finish()
        for error in pass.errors { console.error(error.line) }
        if pass.errors.count > maxErrors {
            if pass.errors.count > pass.shownErrors { console.error("\(tracePath): \(pass.errors.count) bad rows; stopped (allow some with --max-errors N)") }
            return .badInput
        }
        if let stop = pass.stopped { return console.report(stop) }
        var report = ReplayReport(trace: tracePath, traceBytes: source.bytes, traceDigest: source.digest, catalog: catalogPath,
                                  catalogDigest: "sha256:" + sha256Hex(catalogBytes), shard: shard.map { "\($0.index)/\($0.count)" },
                                  rows: pass.rows, badRows: pass.errors.count - pass.userErrors, skippedUsers: pass.skippedUsers,
                                  properties: catalog.expectations.map(\.text), labels: columns.map(\.label), tallies: pass.tallies,
                                  hasProduction: pass.sawShown)
        report.userErrors = pass.userErrors
        report.sweep = sweep.map(\.name)
        if !sweep.isEmpty {
            report.bases = columns.map(\.base)
            report.sweepValues = columns.map(\.values)
        }
        if let dir = args.value("save") {
            try ReplaySave.write(pass.kept, report: report, catalogBytes: catalogBytes, catalogPath: catalogPath, columns: columns,
                                 strategies: set, to: dir, console: &console)
        }
        return finding(report, RunCommand.emit(render(report, format: format, console: console, args: args), to: args.value("output"),
                                               console: &console))
    }

    /// Exit 1 when a user's run did not settle (a finding, written in the report like a failing
    /// property of `run`); else what writing the report gave.
    static func finding(_ report: ReplayReport, _ written: ExitCode) -> ExitCode {
        guard written == .success, report.tallies.columns.contains(where: { $0.unsettled > 0 }) else { return written }
        return .difference
    }

    static func render(_ r: ReplayReport, format: Format, console: Console, args: Arguments) -> String {
        switch format {
        case .text: return ReplayText.render(r, width: args.value("output") == nil ? console.columns : nil)
        case .markdown: return ReplayText.markdown(r)
        case .json: return ReplayJSON.render(r)
        case .csv: return ReplayText.csv(r)
        case .svg: return ReplayCurves.svg(r)
        case .html: return ReplayCurves.html(r)
        }
    }

    /// `--sweep NAME=V1,V2,…`, each name once, at most 1000 columns in all.
    static func sweeps(_ args: Arguments) throws(PopsimError) -> [(name: String, values: [String])] {
        var out: [(name: String, values: [String])] = []
        for text in args.all("sweep") {
            let pair = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let values = pair.count == 2 ? pair[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
            guard pair.count == 2, !pair[0].isEmpty, !values.isEmpty, !values.contains(""), !out.contains(where: { $0.name == pair[0] }) else {
                throw PopsimError.usage("replay: --sweep: expected NAME=V1,V2,... with each name once, got \(JSONValue.quoted(text))")
            }
            out.append((String(pair[0]), values))
        }
        guard out.reduce(1, { $0.multipliedReportingOverflow(by: $1.values.count).partialValue }) <= 1000 else {
            throw PopsimError.usage("replay: --sweep: more than 1000 combinations")
        }
        return out
    }

    /// The columns to run: each `--strategy` (`all` for every built-in one; `name:option=value,…`
    /// for options), else the catalog's strategy, under every combination of the sweeps (the
    /// first sweep varies slowest); each resolved against the catalog now.
    static func replayColumns(_ args: Arguments, catalog: Scenario, strategies: StrategySet,
                              sweep: [(name: String, values: [String])]) throws(PopsimError) -> [Replayer.Column] {
        var specs = CompareCommand.ordered(args.all("strategy"), fileStrategy: catalog.strategy)
        if specs.isEmpty, let own = catalog.strategy { specs = [own] }
        guard !specs.isEmpty else { throw PopsimError.configuration(.noStrategy(file: catalog.file)) }
        var combinations: [[String]] = [[]]
        for s in sweep { combinations = combinations.flatMap { c in s.values.map { c + [$0] } } }
        var columns: [Replayer.Column] = []
        for spec in specs {
            let (name, own) = try CompareCommand.parse(spec)
            // A strategy with none of the swept options runs once: the baseline the curves are set against.
            let entry = strategies.entry(named: name)
            let baseline = !sweep.isEmpty && entry.map { e in sweep.allSatisfy { e.option(named: $0.name) == nil } } == true
            for values in baseline ? [sweep.map { _ in "" }] : combinations {
                let swept = baseline ? [] : zip(sweep, values).map { "\($0.name)=\($1)" }
                let label = swept.isEmpty ? spec : spec + (spec.contains(":") && !spec.hasPrefix(StrategySet.execPrefix) ? "," : ":") + swept.joined(separator: ",")
                do throws(PopsimError) {
                    let configuration = try RunConfiguration.resolve(catalog, strategy: name, overrides: OptionOverride.parseAll(own + swept),
                                                                     strategies: strategies)
                    var column = Replayer.Column(label: label, configuration: configuration, catalog: catalog)
                    column.base = spec
                    column.values = values
                    columns.append(column)
                } catch {
                    if case .configuration(let c) = error { throw PopsimError.usage("replay: --strategy \(label): " + ErrorReport.words(c)) }
                    throw error
                }
            }
        }
        return columns
    }

    static func traceLayout(_ args: Arguments, path: String) throws(PopsimError) -> TraceLayout {
        var format = TraceLayout.format(path: path) ?? .csv
        if args.value("trace-format") != nil {
            format = try args.choice("trace-format", TraceLayout.Format.self, command: "replay", default: .csv)
        }
        var layout = TraceLayout(format: format, timeUnit: try args.choice("time-unit", TraceLayout.TimeUnit.self, command: "replay", default: .ms))
        if let text = args.value("columns"), let bad = layout.map(text) {
            throw PopsimError.usage("replay: --columns: expected field=column with fields among user, time, action, popup, value, "
                                    + "each column once, got \(JSONValue.quoted(bad))")
        }
        return layout
    }

    static func nonNegative(_ args: Arguments, _ name: String) throws(PopsimError) -> Int? {
        guard let text = args.value(name) else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw PopsimError.usage("replay: --\(name): expected an integer >= 0, got \(JSONValue.quoted(text))")
        }
        return n
    }

    /// `--merge REPORT…`: shards of one replay added up into the report of the whole.
    static func merge(_ args: Arguments, format: Format, console: inout Console) throws(PopsimError) -> ExitCode {
        guard !args.positionals.isEmpty else { throw PopsimError.usage("replay: --merge: expected the JSON reports of the shards") }
        var reports: [ReplayReport] = []
        for path in args.positionals {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.read(path)
            } catch {
                throw PopsimError.io(path: path, reason: error.reason)
            }
            switch ReplayJSON.parse(bytes) {
            case .success(let r): reports.append(r)
            case .failure(let problem): throw PopsimError.io(path: path, reason: problem.message)
            }
        }
        let merged: ReplayReport
        switch ReplayMerge.merge(reports, paths: args.positionals) {
        case .success(let r): merged = r
        case .failure(let problem): throw PopsimError.usage("replay: --merge: " + problem.message)
        }
        return finding(merged, RunCommand.emit(render(merged, format: format, console: console, args: args), to: args.value("output"),
                                               console: &console))
    }
}
