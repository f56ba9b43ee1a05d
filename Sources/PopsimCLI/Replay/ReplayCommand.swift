import PopsimCore
import PopsimReports

/// `popsim replay TRACE --catalog C [--strategy S…|all]`: every user of a trace run under each
/// strategy, added up side by side (docs/replay.md).
///
/// Contract: the same trace and catalog give the same bytes for any `--jobs`, any `--memory`,
/// any order of the users' rows, and any `--shard` split merged back. A bad row is a located
/// error and exit 2 with nothing written, unless `--max-errors N` lets up to N bad rows (and
/// their users) be skipped and counted. A plug-in's failure or popsim's own bug in a user's run
/// stops it with run's words (exit 2 or 70, nothing written); a user whose run does not settle is
/// counted, named and makes the exit 1. Exit 0 otherwise: a failing property is a share of users,
/// not a failure.
enum ReplayCommand {
    enum Format: String, CaseIterable { case text, markdown, json, csv, html, svg }

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "replay", console: &console) else { return .success }
        let format = try args.choice("format", Format.self, command: "replay", default: .text)
        _ = try grouping(args, report: nil)
        try OutputGuard.refuse(output: args.value("output"), inputs: OutputGuard.inputs(args), command: "replay")
        if args.flag("merge") {
            if args.flag("pack") { throw PopsimError.usage("replay: --pack: --merge reads reports, not a trace: nothing to pack") }
            return try merge(args, format: format, console: &console)
        }
        guard args.positionals.count == 1, let tracePath = args.positionals.first else {
            throw PopsimError.usage("replay: expected exactly one trace (a file, or - for standard input); see 'popsim help replay'")
        }
        guard let catalogPath = args.value("catalog") else {
            throw PopsimError.usage("replay: expected --catalog FILE (the popups, state and expect of the app; see docs/replay.md)")
        }
        let guards = try Guards(args, command: "replay")
        guards.arm(console)
        var set = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        let catalog: Scenario, catalogBytes: [UInt8]
        switch ReplayCommand.loadCatalog(catalogPath, maxBytes: guards.maxBytes, strategies: &set) {
        case .success(let loaded): (catalog, catalogBytes) = loaded
        case .failure(let error): return console.report(error)
        }
        let sweep = try sweeps(args)
        let columns = try replayColumns(args, catalog: catalog, strategies: set, sweep: sweep)
        let catalogDigest = "sha256:" + sha256Hex(catalogBytes)
        // A pack (`--pack` wrote it) is read as it was packed; else the trace as the options say.
        let packed = try TracePackFile.isPack(tracePath) ? packedTrace(tracePath, args: args, catalogDigest: catalogDigest) : nil
        let packPath = try packOption(args, packed: packed != nil)
        let layout = packed == nil ? try traceLayout(args, path: tracePath, catalog: catalog, maxBytes: guards.maxBytes) : (TraceLayout(format: .csv), known: true)
        let shard = try Shard.option(args, command: "replay")
        let givenMaxErrors = try maxErrorsOption(args)
        let maxErrors = packed?.manifest.maxErrors ?? givenMaxErrors
        // Packing replays with one worker: the pack holds users in the order it replayed them.
        let workers = packPath != nil ? 1 : min(try CheckCommand.jobCount(args, command: "replay"), ReplayPass.maxWorkers)
        let budget = try memory(args)
        let plan = SpillPlan(budget: budget, workers: workers, catalogBytes: catalogBytes.count)
        if plan.isBelowMinimum {
            console.error("popsim: replay: warning: --memory \(args.value("memory") ?? "") is less than popsim needs to run at all "
                          + "(about \(mebibytes(plan.needed)) MiB for \(workers) jobs and this catalog); every user goes to temporary partitions")
        }
        let folder = try TracePartitions.checkedFolder(console.environment)
        // `--save DIR`: the catalog's tree to write users from, and where disagreeing users wait.
        let save = try args.value("save").map { (dir) throws(PopsimError) -> (dir: String, root: JSONValue, disagreements: SavedDisagreements) in
            let root = try ReplaySave.catalogRoot(catalogBytes, path: catalogPath)
            return (dir, root, try SavedDisagreements(root: root, columns: columns, strategies: set, dir: dir, trace: packed?.manifest.trace ?? tracePath, folder: folder,
                                                     inputs: OutputGuard.inputs(args)))
        }
        let replayer = Replayer(catalog: catalog, columns: columns, limits: guards.limits, file: tracePath)
        var pass = ReplayPass(ReplayPass.Settings(
            replayer: replayer,
            workerReplayers: try workerReplayers(replayer, workers: workers, catalogBytes: catalogBytes, path: catalogPath, args: args,
                                                 strategies: set, sweep: sweep),
            layout: layout.0,
            formatKnown: layout.known,
            catalog: catalog, file: tracePath, shard: shard, promisedGrouped: args.flag("grouped"), maxErrors: maxErrors,
            workers: workers, saving: save != nil, disagreements: save?.disagreements, plan: plan,
            folder: folder, pack: try packPath.map { (path) throws(PopsimError) in try TracePackWriter(path: path, folder: folder) }))
        // Only the JSON report (what --merge reads) carries the trace's digest; a pack keeps it.
        let hashing = format == .json || packPath != nil
        var reading: TracePack.Manifest
        if let packed {
            try pass.replayPacked((0..<workers).map { (w) throws(PopsimError) in try packed.share(w, of: workers) }, manifest: packed.manifest)
            if let stop = pass.stopped { return console.report(stop) }
            reading = packed.manifest
        } else {
            var source = try TraceSource(tracePath, hashing: hashing)
            defer { source.close() }
            let progress = console.progressLine()
            try pass.run(&source, reopen: { () throws(PopsimError) -> TraceSource in try TraceSource(tracePath, hashing: hashing) }, progress: progress)
            progress?.finish()
            for error in pass.errors { console.error(TraceErrorText.line(error)) }
            if pass.errorCount > maxErrors || pass.workers.contains(where: { $0.gatherer.stopsReading }) { return .badInput }
            if let stop = pass.stopped { return console.report(stop) }
            reading = ReplayCommand.reading(pass, source: source, path: tracePath, layout: layout.0, maxErrors: maxErrors, catalogDigest: catalogDigest)
        }
        // The workers' tallies added up once, for every use below.
        let tallies = pass.tallies
        if let packed {
            // Every user the manifest counts, each once: a pack that replays fewer or more is damaged.
            guard tallies.columns.allSatisfy({ $0.users == packed.manifest.users }) else {
                return console.report(.io(path: tracePath, reason: TracePackFile.damaged))
            }
        } else if let refusal = leftOut(pass, tallies, path: tracePath, sharded: shard != nil) {
            return console.report(refusal)
        } else if let stop = TraceWarnings.say(TraceWarnings.check(pass.workers.map(\.gatherer), catalog: catalog, layout: layout.0), path: tracePath,
                                               strict: args.flag("strict"), console: &console) {
            return stop
        }
        // One line for the parts read whole past the budget (a user too big for it), the biggest;
        // none when the budget was said to be short already.
        if !plan.isBelowMinimum, let biggest = pass.oversized.max(by: { $0.bytes < $1.bytes }) {
            let more = pass.oversized.count > 1 ? " (and \(pass.oversized.count - 1) more parts)" : ""
            console.error("popsim: replay: warning: " + (biggest.user.map { "user \(JSONValue.quoted($0))'s rows" } ?? "a part of the users' rows")
                          + " (\(mebibytes(biggest.bytes)) MiB encoded) were more than --memory leaves for one part\(more); memory went past it for them")
        }
        var report = ReplayReport(trace: reading.trace, traceBytes: reading.traceBytes, traceDigest: format == .json ? reading.traceDigest : "",
                                  catalog: catalogPath, catalogDigest: catalogDigest, shard: shard?.text,
                                  rows: reading.rows, badRows: reading.badRows, skippedUsers: reading.skippedUsers,
                                  properties: catalog.expectations.map(\.text), labels: columns.map(\.label), tallies: tallies,
                                  hasProduction: reading.hasProduction)
        report.userErrors = reading.userErrors
        report.settings = format == .json ? try settingsDigest(reading: reading.reading, columns: columns, limits: guards.limits, maxErrors: maxErrors,
                                                                maxBytes: guards.maxBytes) : ""
        report.hasTriggers = reading.hasTriggers
        report.unmapped = ReplayReport.unmapped(Dictionary(reading.unmapped.map { ($0.event, $0.rows) }, uniquingKeysWith: +))
        report.unmappedUnlisted = reading.unmappedUnlisted
        report.groups = pass.settings.replayer.groups.all
        report.sweep = sweep.names
        if !sweep.isEmpty {
            report.bases = columns.map(\.base)
            report.sweepValues = columns.map(\.values)
        }
        if let save {
            try save.disagreements.check()
            try ReplaySave.makeFolder(save.dir)
            try ReplaySave.writeFailures(pass.kept(in: tallies), report: report, root: save.root, columns: columns, strategies: set, to: save.dir,
                                         inputs: save.disagreements.inputs)
            try save.disagreements.write(hasProduction: report.hasProduction)
        }
        let written = RunCommand.emit(try render(report, format: format, console: console, args: args), to: args.value("output"), console: &console)
        // The pack last, once the report is written: a replay that exits 2 leaves no pack.
        if written == .success, let writer = pass.settings.pack as? TracePackWriter {
            reading.users = pass.workers.reduce(0) { $0 + $1.packedUsers }
            do throws(PopsimError) { try writer.finish(reading) } catch { return console.report(error) }
        }
        return finding(report, written)
    }

    /// The catalog of a replay or a fit, and its bytes (its digest, the workers' copies): a
    /// catalog holds no events (the trace gives each user's), said as a load error.
    static func loadCatalog(_ path: String, maxBytes: Int, strategies: inout StrategySet) -> Result<(Scenario, [UInt8]), PopsimError> {
        var bytes: [UInt8] = []
        let catalog: Scenario
        do {
            catalog = try ScenarioSource.load(path, maxBytes: maxBytes, strategies: &strategies, read: { bytes = $0.copy })
        } catch {
            return .failure(error)
        }
        if let first = catalog.events.first {
            return .failure(.input(LoadErrors([LoadError(file: path, location: first.location, path: JSONPath.root.appending("events"),
                                                         problem: .misplaced("events", hint: "a catalog has no events: the trace gives each user's"))])))
        }
        return .success((catalog, bytes))
    }

    /// A replayer per worker, each over a load of its own of the catalog's bytes: a user's run
    /// retains and releases the catalog's arrays and strings, and two threads on one reference
    /// count cost about 4 % of a `--jobs 2` replay. The first worker takes `replayer` itself.
    static func workerReplayers(_ replayer: Replayer, workers: Int, catalogBytes: [UInt8], path: String, args: Arguments,
                                strategies: StrategySet, sweep: Sweep) throws(PopsimError) -> [Replayer] {
        var all = [replayer]
        var known = StrategyRegistry.catalog
        known.entries += strategies.extra.map { ($0.name, $0.options) }
        while all.count < workers {
            guard case .success(let copy) = catalogBytes.withUnsafeBufferPointer({ ScenarioLoader.load($0, file: path, catalog: known) }) else {
                throw PopsimError.internalError("replay: the catalog does not load a second time")
            }
            all.append(Replayer(catalog: copy, columns: try replayColumns(args, catalog: copy, strategies: strategies, sweep: sweep),
                                limits: replayer.limits, file: replayer.file))
        }
        return all
    }

    /// A replay that would report on almost nothing: a quote left open to the end of the trace,
    /// no user replayed (a whole trace; a shard may hold none), or more than half the shard's
    /// rows left out with their users' bad rows (`--max-errors` is for a few bad rows, not a
    /// broken file).
    static func leftOut(_ pass: ReplayPass, _ tallies: ReplayTallies, path: String, sharded: Bool) -> PopsimError? {
        let rows = pass.shardRows, left = rows - pass.replayedRows
        if let open = pass.errors.first(where: { $0.problem == .quoteNotClosed }) {
            return .io(path: path, reason: "the quote left open on line \(open.location.line) takes the rest of the trace with it: "
                       + "--max-errors skips a few bad rows, not the rest of the file; close the quote")
        }
        if !sharded, tallies.columns.allSatisfy({ $0.users == 0 }) {
            let unmapped = ReplayReport.unmapped(pass.unmapped.counts), unlisted = pass.unmapped.unlisted
            let names = unmapped.isEmpty ? "\(unlisted) rows of more than \(UnmappedEvents.listed) event names"
                : unmapped.prefix(5).map { "\(TerminalText.safe($0.event)) \($0.rows)" }.joined(separator: ", ") + (unmapped.count > 5 ? ", …" : "")
            let why = rows > 0 ? "every user was left out with a bad row (\(pass.skippedUsers) users, \(rows) rows)"
                : pass.unmapped.isEmpty ? "the trace has no rows"
                : "no row's event is mapped (\(names)): map them with --event NAME=MEANING or --mapping"
            return .io(path: path, reason: "no user was replayed: \(why)")
        }
        guard left > rows - left else { return nil }
        return .io(path: path, reason: "\(left) of \(rows) rows were left out with their users' bad rows, more than half: "
                   + "--max-errors skips a few bad rows, not a broken trace; fix the rows above")
    }

    /// Exit 1 when a user's run did not settle (a finding, written in the report like a failing
    /// property of `run`); else what writing the report gave.
    static func finding(_ report: ReplayReport, _ written: ExitCode) -> ExitCode {
        guard written == .success, report.tallies.columns.contains(where: { $0.unsettled > 0 }) else { return written }
        return .difference
    }

    static func render(_ given: ReplayReport, format: Format, console: Console, args: Arguments) throws(PopsimError) -> String {
        let (by, only) = try grouping(args, report: given)
        var r = given
        r.onlyGroups = only
        switch format {
        case .text: return ReplayText.render(r, width: args.value("output") == nil ? console.columns : nil, by: by)
        case .markdown: return ReplayText.markdown(r, by: by)
        case .json: return ReplayJSON.render(r)
        case .csv: return ReplayText.csv(r)
        case .svg: return ReplayCurves.svg(r, by: by)
        case .html: return ReplayCurves.html(r, by: by)
        }
    }

    static func mebibytes(_ bytes: Int) -> Int { (max(0, bytes) + (1 << 20) - 1) >> 20 }

    /// `--memory SIZE`: bytes, or with a suffix K, M or G (powers of 1024, as `sort -S`).
    static func memory(_ args: Arguments) throws(PopsimError) -> Int {
        guard let text = args.value("memory") else { return SpillPlan.defaultBudget }
        guard let bytes = Self.size(text) else {
            throw PopsimError.usage("replay: --memory: expected a size like 256M (bytes, or K, M, G), got \(JSONValue.quoted(text))")
        }
        return bytes
    }

    /// `123`, `64K`, `256M`, `2G` (case-insensitive; a trailing `B` or `iB` allowed); nil when not
    /// one, or past 2⁵⁰.
    static func size(_ text: String) -> Int? {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        var shift = 0
        if let last = digits.last, let k = ["K": 10, "M": 20, "G": 30][String(last)] {
            shift = k
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int(digits), n >= 0, n <= (1 << 50) >> shift else { return nil }
        return n << shift
    }

    /// The columns to run: each `--strategy` (`all` for every built-in one; `name:option=value,…`
    /// for options), else the catalog's strategy, under every combination of the sweeps (the
    /// first sweep varies slowest); each resolved against the catalog now.
    static func replayColumns(_ args: Arguments, catalog: Scenario, strategies: StrategySet, sweep: Sweep) throws(PopsimError) -> [Replayer.Column] {
        var specs = CompareCommand.ordered(args.all("strategy"), fileStrategy: catalog.strategy)
        if specs.isEmpty, let own = catalog.strategy { specs = [own] }
        guard !specs.isEmpty else { throw PopsimError.configuration(.noStrategy(file: catalog.file)) }
        // A swept name that no strategy of the replay varies (a typo) would run every column as
        // a baseline and look like an answer.
        var entries: [StrategyEntry?] = []
        for spec in specs { entries.append(strategies.entry(named: try CompareCommand.parse(spec).0)) }
        for d in sweep.dimensions where !entries.contains(where: { e in e.map { e in SweepAxes.all.contains { $0.varies(d.name, under: e) } } ?? true }) {
            let known = Array(Set(entries.compactMap { $0 }.flatMap { $0.options.map(\.name) })).sorted()
            throw PopsimError.usage("replay: --sweep \(JSONValue.quoted(d.name)): no strategy of the replay has that option"
                                    + (Suggestion.closest(d.name, among: known).map { " (did you mean \(JSONValue.quoted($0))?)" } ?? "")
                                    + "; a scope's caps sweep as dailyCap.SCOPE, cap.SCOPE/WINDOW, gap.SCOPE or cooldown.SCOPE under policy")
        }
        var columns: [Replayer.Column] = []
        for spec in specs {
            let (name, own) = try CompareCommand.parse(spec)
            // A strategy sweeps the swept options it has; with none of them it runs once: the
            // baseline the curves are set against.
            let entry = strategies.entry(named: name)
            for values in entry.map({ sweep.combinations(for: $0) }) ?? sweep.combinations {
                let swept: [String]
                if let entry {
                    swept = sweep.overrides(values, under: entry)
                } else {
                    swept = zip(sweep.names, values).map { "\($0)=\($1)" }
                }
                let label = swept.isEmpty ? spec : spec + (spec.contains(":") && !spec.hasPrefix(StrategySet.execPrefix) ? "," : ":") + swept.joined(separator: ",")
                let configuration = try RunConfiguration.resolve(catalog, strategy: name, texts: own + swept, strategies: strategies,
                                                                 usage: "replay: --strategy \(label)")
                var column = Replayer.Column(label: label, configuration: configuration, catalog: catalog)
                column.base = spec
                column.values = values
                columns.append(column)
            }
        }
        return columns
    }

    /// The trace's layout from `--trace-format` (else the file's extension), then `--mapping`'s
    /// file, then `--time-unit`, `--columns`, `--event` and `--time-zone` over it; and whether the
    /// format is known (else it is told by the trace's first bytes).
    static func traceLayout(_ args: Arguments, path: String, catalog: Scenario, maxBytes: Int,
                            command: String = "replay") throws(PopsimError) -> (TraceLayout, known: Bool) {
        var format = path == "-" ? nil : TraceFormats.implied(by: path)
        if let name = args.value("trace-format") {
            guard let named = TraceFormats.named(name) else {
                throw PopsimError.usage("\(command): --trace-format: expected one of \(TraceFormats.names.joined(separator: ", ")); got \(JSONValue.quoted(name))")
            }
            format = named
        }
        var layout = TraceLayout(format: format ?? .csv)
        if let file = args.value("mapping") {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.read(file, maxBytes: maxBytes)
            } catch {
                throw PopsimError.io(path: file, reason: error.reason)
            }
            switch TraceMappingFile.load(bytes, file: file, catalog: catalog, into: layout) {
            case .success(let mapped): layout = mapped
            case .failure(let errors): throw PopsimError.input(errors)
            }
        }
        if args.value("time-unit") != nil {
            layout.timeUnit = try args.choice("time-unit", TraceLayout.TimeUnit.self, command: "replay", default: .ms)
        }
        if args.flag("multiline-fields") { layout.quotedLineBreaks = nil }
        if let text = args.value("columns"), let bad = layout.map(text) {
            throw PopsimError.usage("\(command): --columns: expected field=column with fields among "
                                    + TraceField.allCases.map(\.rawValue).joined(separator: ", ") + ", each column once, got \(JSONValue.quoted(bad))")
        }
        for text in args.all("event") {
            let pair = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let meaning = TraceMapping.meaning(pair[1]) else {
                throw PopsimError.usage("\(command): --event: expected NAME=MEANING with a meaning among "
                                        + TraceVerb.all.map(\.word).joined(separator: ", ") + " (\(TraceMappingFile.meaningNote)), got \(JSONValue.quoted(text))")
            }
            if case .setVariable(let name) = meaning, !catalog.state.names.contains(name) {
                throw PopsimError.usage("\(command): --event \(JSONValue.quoted(text)): the catalog has no state \(JSONValue.quoted(name))"
                                        + (Suggestion.closest(name, among: catalog.state.names).map { " (did you mean \(JSONValue.quoted($0))?)" } ?? ""))
            }
            if let refused = TraceMapping.refusedValue(meaning) {
                throw PopsimError.usage("\(command): --event \(JSONValue.quoted(text)): \(JSONValue.quoted(refused.verb.word)) takes no value "
                                        + "(got \(JSONValue.quoted(refused.value)))")
            }
            layout.mapping.events.removeAll { $0.name == pair[0] }
            layout.mapping.events.append((pair[0], meaning))
        }
        if let text = args.value("time-zone") {
            guard let minutes = TraceMapping.timeZone(text) else {
                throw PopsimError.usage("\(command): --time-zone: expected \(TraceMappingFile.timeZoneExpected), got \(JSONValue.quoted(text))")
            }
            layout.mapping.timeZoneMinutes = minutes
        }
        return (layout, format != nil)
    }

    /// What else makes a shard's figures, as one SHA-256 (`--merge` refuses shards that differ):
    /// how the trace is read (format, columns, time unit and zone, the mapping), the limits of a
    /// run, `--max-errors`, and per column its resolved options (a policy file's rules are its
    /// options) and, for a plug-in, its file's bytes.
    static func settingsDigest(layout: TraceLayout, columns: [Replayer.Column], limits: RunLimits, maxErrors: Int,
                               maxBytes: Int) throws(PopsimError) -> String {
        try settingsDigest(reading: readingLines(layout), columns: columns, limits: limits, maxErrors: maxErrors, maxBytes: maxBytes)
    }

    /// How a trace is read, as the settings digest says it (a pack keeps these lines): format,
    /// time, columns and quoted line breaks, then the mapping's events and popups.
    static func readingLines(_ layout: TraceLayout) -> [String] {
        ["format \(layout.format.name)", "time \(layout.timeUnit.rawValue) zone \(layout.mapping.timeZoneMinutes)",
         "columns " + layout.names.joined(separator: "\u{1F}"), "quoted line breaks \(layout.quotedLineBreaks.map(String.init) ?? "any")"]
            + layout.mapping.events.map { "event \($0.name)\u{1F}\($0.meaning)" }
            + layout.mapping.popups.map { "popup \($0.name)\u{1F}\($0.popup)" }
    }

    static func settingsDigest(reading: [String], columns: [Replayer.Column], limits: RunLimits, maxErrors: Int,
                               maxBytes: Int) throws(PopsimError) -> String {
        var lines = Array(reading.prefix(4))
        lines += ["limits \(limits.maxStepsPerInstant) \(limits.maxSteps) \(limits.maxLines)", "max errors \(maxErrors)"]
        lines += reading.dropFirst(4)
        for column in columns {
            lines.append("column \(column.label)\u{1F}\(column.configuration.entry.name)")
            lines += column.configuration.options.settings.map { "option \($0.name)\u{1F}\($0.value)" }
            if column.base.hasPrefix(StrategySet.execPrefix) || column.label.hasPrefix(StrategySet.execPrefix) {
                let spec = column.base.isEmpty ? column.label : column.base
                let path = String(spec.dropFirst(StrategySet.execPrefix.count).prefix { $0 != " " && $0 != ":" })
                let bytes = (try? FileIO.read(path, maxBytes: maxBytes)) ?? []
                lines.append("plug-in \(path)\u{1F}\(sha256Hex(bytes))")
            }
        }
        return "sha256:" + sha256Hex(Array(lines.joined(separator: "\n").utf8))
    }

    static func nonNegative(_ args: Arguments, _ name: String, command: String = "replay") throws(PopsimError) -> Int? {
        guard let text = args.value(name) else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw PopsimError.usage("\(command): --\(name): expected an integer >= 0, got \(JSONValue.quoted(text))")
        }
        return n
    }

    /// `--merge REPORT…`: shards of one replay added up into the report of the whole.
    static func merge(_ args: Arguments, format: Format, console: inout Console) throws(PopsimError) -> ExitCode {
        guard !args.positionals.isEmpty else { throw PopsimError.usage("replay: --merge: expected the JSON reports of the shards") }
        let reports = try ShardReports.read(args.positionals, parse: ReplayJSON.parse)
        let merged: ReplayReport
        switch ReplayMerge.merge(reports, paths: args.positionals) {
        case .success(let r): merged = r
        case .failure(let problem): throw PopsimError.usage("replay: --merge: " + problem.message)
        }
        if merged.tallies.columns.allSatisfy({ $0.users == 0 }) {
            throw PopsimError.usage("replay: --merge: no user was replayed in any shard")
        }
        return finding(merged, RunCommand.emit(try render(merged, format: format, console: console, args: args), to: args.value("output"),
                                               console: &console))
    }
}
