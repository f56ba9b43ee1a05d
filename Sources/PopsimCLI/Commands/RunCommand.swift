import Dispatch
import PopsimCore
import PopsimSystem
import PopsimReports

/// `popsim run FILE…`: loads each scenario, runs it, prints (or saves) the report.
///
/// Contract: files run in the order given; their reports are concatenated (text: a blank line
/// between; JSON: one document each). Every error is reported; the exit code is the worst outcome.
/// With `--output`, the file is written only if every scenario ran, atomically.
/// With `--update`, each scenario's expected timeline is rewritten instead (never when `CI` is set).
enum RunCommand {
    enum Format: String, CaseIterable { case text, json, gantt, svg, html, trace }


    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "run", console: &console) else { return .success }
        guard !args.positionals.isEmpty else { throw PopsimError.usage("run: expected at least one scenario file; see 'popsim help run'") }
        let format = try args.choice("format", Format.self, command: "run", default: .text)
        let color = try args.choice("color", ColorMode.self, command: "run", default: .auto)
        try OutputGuard.refuse(output: args.value("output"), inputs: OutputGuard.inputs(args), command: "run")
        let guards = try Guards(args, command: "run")
        var limits = guards.limits
        if (format == .svg || format == .html || format == .trace) && args.positionals.count > 1 {
            throw PopsimError.usage("run: --format \(format.rawValue) draws one scenario; run it once per file")
        }
        if args.flag("update") {
            if let stdin = args.positionals.first(where: { $0 == "-" || $0 == "/dev/stdin" }) {
                throw PopsimError.usage("run: --update writes a golden beside each scenario file; \(stdin) (standard input) has none")
            }
            if console.isCI {
                throw PopsimError.usage("run: --update is refused when CI is set: expected timelines change only by hand")
            }
            if args.value("output") != nil { throw PopsimError.usage("run: --update and --output do not go together") }
            try refuseUnrecordedOptions(args, command: "run")
        }
        guards.arm(console)
        let strategies = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        let progress = console.progressLine()
        limits.progress = Self.eventProgress(progress, "run")
        defer { progress?.finish() }
        let style = args.value("output") == nil ? console.style(for: color) : .plain
        var outcome = ExitCode.success
        // A property that fails makes the exit 1, but its report is written like any other.
        var propertyFailed = false
        let chart = GanttStyle(console: console, args: args, style: style)
        /// Runs every file and renders each report into `writer` as it comes.
        // Several files as JSON are one document: an array of the reports.
        let jsonArray = format == .json && args.positionals.count > 1
        func runAll(into writer: inout ByteWriter, errors: inout Console) {
            var first = true
            for path in args.positionals {
                var strategies = strategies
                guard let result = runOne(path, command: "run", args: args, limits: limits, maxBytes: guards.maxBytes,
                                          strategies: &strategies, console: &errors, outcome: &outcome) else { continue }
                if !args.flag("quiet") {
                    for line in Lint.ignoredSummary(result, strategies: strategies) { errors.error(line) }
                }
                if args.flag("update") {
                    outcome = outcome.worst(update(result, label: strategies.goldenLabel(result.strategy), console: &errors))
                    continue
                }
                if !first && (format == .text || format == .gantt) { writer.byte(0x0A) }
                if format == .svg || format == .html, let refusal = ChartSize.refusal(result.timeline.chartMarks, args: args, command: "run") {
                    outcome = outcome.worst(errors.report(refusal))
                    continue
                }
                if jsonArray { writer.write(first ? "[" : ",") }
                first = false
                // Judged once: the report shows the verdicts, the exit code reads them.
                let verdicts = PropertyJudge.verdicts(result)
                switch format {
                case .text: TextRenderer.render(result, style: style, verdicts: verdicts, into: &writer)
                case .json: JSONRenderer.render(result, verdicts: verdicts, into: &writer)
                case .gantt: writer.write(Gantt.render([(result.strategy, result)], chart: chart))
                case .svg: writer.write(SVGChart.render(title: result.scenario.name, lanes: [(result.strategy, result)]))
                case .html: writer.write(HTMLChart.render(title: result.scenario.name, file: result.scenario.file, lanes: [(result.strategy, result)]))
                case .trace: writer.write(TraceChart.render(lanes: [(result.strategy, result)]))
                }
                if verdicts.contains(where: { !$0.holds }) { propertyFailed = true }
                LastRun.keep(result)
                // What is finished goes out now: a timeout later loses nothing of it.
                writer.flush()
            }
            if jsonArray { writer.write(first ? "[]\n" : "]\n") }
        }
        guard let output = args.value("output") else {
            var errors = Console(environment: console.environment)
            errors.errorSink = console.errorSink
            runAll(into: &console.output, errors: &errors)
            console.stderr += errors.stderr
            console.out(errors.stdout)
            return outcome.worst(propertyFailed ? .difference : .success)
        }
        do {
            try FileIO.writeAtomically(to: output) { writer in
                runAll(into: &writer, errors: &console)
                return outcome == .success
            }
        } catch {
            return outcome.worst(console.report(.io(path: output, reason: error.reason)))
        }
        return outcome.worst(propertyFailed ? .difference : .success)
    }

    /// `--update` records a golden that a plain `check` must reproduce, so it refuses options given
    /// on the command line: they would not be in the file (set them in the file's `options`).
    static func refuseUnrecordedOptions(_ args: Arguments, command: String) throws(PopsimError) {
        guard let first = args.all("option").first else { return }
        throw PopsimError.usage("\(command): --update with --option \(first): the golden would not match a plain 'popsim check'; "
            + "set the option in the file's \"options\" instead")
    }

    /// What a run tells a progress line: `run: 40% of 1000000 events` (nil without a line).
    static func eventProgress(_ line: ProgressLine?, _ what: @autoclosure @escaping @Sendable () -> String)
        -> (@Sendable (Int, Int) -> Void)? {
        guard let line else { return nil }
        return { done, total in line.update("\(what()): \(done * 100 / max(total, 1))% of \(total) events") }
    }

    /// Writes a report to `--output` atomically, or to stdout.
    static func emit(_ report: String, to output: String?, console: inout Console) -> ExitCode {
        guard let output else {
            console.out(report)
            return .success
        }
        do {
            try FileIO.writeAtomically(report, to: output)
        } catch {
            return console.report(.io(path: output, reason: error.reason))
        }
        return .success
    }


    /// Loads and runs one scenario; reports its errors and returns nil when it cannot.
    /// `strategies` gains what the scenario names beside it (a plug-in, a policy file).
    static func runOne(_ path: String, command: String, args: Arguments, limits: RunLimits, maxBytes: Int = FileIO.defaultMaxBytes,
                       strategies: inout StrategySet, console: inout Console, outcome: inout ExitCode) -> RunResult? {
        do {
            let scenario = try ScenarioSource.load(path, maxBytes: maxBytes, strategies: &strategies)
            return try Pipeline.run(scenario, strategy: StrategyArguments.defaultStrategy(args),
                                    overrides: OptionOverride.parseAll(args.all("option")), limits: limits, strategies: strategies)
        } catch {
            outcome = outcome.worst(console.report(error, context: command))
            return nil
        }
    }

    static func update(_ result: RunResult, label: String, console: inout Console) -> ExitCode {
        let path = ScenarioSource.goldenPath(for: result.scenario.file, strategy: label)
        let text = TimelineText.render(result.timeline)
        if let old = try? FileIO.read(path), old == Array(text.utf8) {
            console.out("unchanged \(path)\n")
            return .success
        }
        do {
            try FileIO.writeAtomically(text, to: path)
        } catch {
            return console.report(.io(path: path, reason: error.reason))
        }
        console.out("updated \(path)\n")
        return .success
    }
}

/// The last run's result (or loaded scenario), kept until popsim exits: the process ends
/// without walking a run of millions of events, or a million popups, to free it (about 2 % of
/// `popsim run` on 1M events, measured by `Benchmarks/run`; a tenth of `lint --load-only` on 1M
/// popups). Each new one replaces the one before, so memory stays one run's.
enum LastRun {
    private static let kept = System.Locked<(any Sendable)?>(nil)

    static func keep(_ value: some Sendable) {
        let previous = kept.withLock { k in
            defer { k = value }
            return k
        }
        _ = previous  // freed here, outside the lock
    }
}
