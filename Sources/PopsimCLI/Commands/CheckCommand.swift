import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// `popsim check FILE|DIR…`: every scenario against its expected timelines (design.md §7).
///
/// Contract: one `PASS:`/`FAIL:` line per scenario and strategy in input order, a unified diff
/// under each failure, load and run errors on stderr, and the last line `N passed, N failed`.
/// Exit 0 when all pass, 1 when any differs or lacks a golden, 2 for bad input (70 internal).
/// `--update` writes the failing goldens atomically and counts them as passed; refused under CI.
/// `--junit FILE` also writes a JUnit XML report, atomically.
/// `check --format`: lines for people, one JSON document, or the lines with GitHub Actions
/// workflow commands under each failure.
enum CheckFormat: String, CaseIterable {
    case text, json, github
}

enum CheckCommand {
    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "check", console: &console) else { return .success }
        guard !args.positionals.isEmpty else { throw PopsimError.usage("check: expected scenario files or folders; see 'popsim help check'") }
        if args.flag("update") {
            if console.isCI {
                throw PopsimError.usage("check: --update is refused when CI is set: expected timelines change only by hand")
            }
            try RunCommand.refuseUnrecordedOptions(args, command: "check")
        }
        let guards = try Guards(args, command: "check")
        let strategies = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        for name in args.all("strategy") where strategies.entry(named: name) == nil {
            throw PopsimError.configuration(.unknownStrategy(name))
        }
        let jobs = try jobCount(args, command: "check")
        let format = try args.choice("format", CheckFormat.self, command: "check", default: .text)
        let style = console.style(for: try args.choice("color", ColorMode.self, command: "check", default: .auto))
        guards.arm(console)
        let paths: [Expectations.Found]
        do {
            paths = try Expectations.scenarios(in: args.positionals)
        } catch {
            throw PopsimError.usage("check: \(error.reason)")
        }
        guard !paths.isEmpty else {
            throw PopsimError.usage("check: no scenario found in \(args.positionals.joined(separator: ", ")) (a folder stands for every *.json below it)")
        }
        try OutputGuard.refuse(output: args.value("junit"), option: "--junit", inputs: paths.map(\.path) + OutputGuard.inputs(args), command: "check")
        try OutputGuard.refuseJUnit(args.value("junit"))
        let only = args.all("strategy").isEmpty ? StrategyArguments.defaultStrategy(args).map { [$0] } ?? [] : args.all("strategy")
        let runner = CheckRunner(only: only, overrides: args.all("option"), limits: guards.limits,
                                 maxBytes: guards.maxBytes, strategies: strategies)
        var outcomes = StopRequest.stoppable { runner.run(paths, jobs: jobs, progress: console.progressLine()) }
        // Run through the SwiftPM plug-in: its hints name the plug-in's form.
        if let invocation = console.environment["POPSIM_INVOCATION"].map(TerminalText.safe), !invocation.isEmpty {
            for i in outcomes.indices { outcomes[i].invocation = invocation }
        }
        let stopped = StopRequest.requested.map { $0.text(timeout: guards.timeout) }
        var outcome = ExitCode.success
        var passed = 0, failed = 0, skipped = 0, xfailed = 0
        for i in outcomes.indices {
            if args.flag("update") { update(&outcomes[i], console: &console) }
            let o = outcomes[i]
            if format != .json { console.out(CheckReport.line(o, style: style)) }
            if format == .github { console.out(GitHubAnnotations.commands(o) { ErrorReport.lines($0, context: "check") }) }
            switch o.verdict {
            case .pass where o.xfailed:
                xfailed += 1
            case .pass where o.passed:
                passed += 1
            case .pass, .differs, .missing, .unresolved:
                failed += 1
                outcome = outcome.worst(.difference)
            case .error(let error):
                failed += 1
                outcome = outcome.worst(console.report(error, context: "check"))
            case .skipped:
                skipped += 1
            }
        }
        if let stopped {
            let checked = Set(outcomes.map(\.scenario)).count
            let what = "\(stopped); \(checked) of \(paths.count) scenarios checked"
            if format == .json {
                outcome = outcome.worst(console.report(.usage("check: incomplete: " + what)))
            } else {
                console.out("INCOMPLETE: " + what + "\n")
                outcome = outcome.worst(.badInput)
            }
        }
        switch format {
        case .text, .github:
            console.out(CheckReport.summary(passed: passed, failed: failed, skipped: skipped, xfailed: xfailed))
            if !args.flag("update") { console.out(CheckReport.acceptAdvice(outcomes)) }
        case .json: console.out(CheckJSON.render(outcomes) { ErrorReport.lines($0, context: "check") })
        }
        if passed + failed + xfailed == 0 {
            outcome = outcome.worst(console.report(.usage("check: no scenario among the \(skipped) JSON files found")))
        }
        if let junit = args.value("junit") {
            do {
                try FileIO.writeAtomically(JUnitReport.render(outcomes) { ErrorReport.lines($0, context: "check") }, to: junit)
            } catch {
                outcome = outcome.worst(console.report(.io(path: junit, reason: error.reason)))
            }
        }
        return outcome
    }

    /// `--jobs`, for `command` (check, explore), which the message names.
    /// The most jobs a command runs, whatever `--jobs` says.
    static let maxJobs = 1024

    static func jobCount(_ args: Arguments, command: String) throws(PopsimError) -> Int {
        guard let text = args.value("jobs") else { return max(1, System.processorCount) }
        guard let n = Int(text), n > 0 else {
            throw PopsimError.usage("\(command): --jobs: expected an integer > 0, got \(JSONValue.quoted(text))")
        }
        // More threads than any machine has only multiplies what sizes by them (issue 41).
        return min(n, Self.maxJobs)
    }

    /// Writes the golden of an outcome that differs or has none (properties or not) and turns it
    /// into a pass; broken properties stay failures.
    static func update(_ o: inout CheckOutcome, console: inout Console) {
        guard let golden = o.goldenPath, let actual = o.actual else { return }
        switch o.verdict {
        case .pass where !o.goldenMissing:
            break
        case .differs, .missing, .pass:
            do {
                try FileIO.writeAtomically(actual, to: golden)
                console.out("UPDATED: \(golden)\n")
                o.verdict = .pass
                o.goldenMissing = false
            } catch {
                o.verdict = .error(.io(path: golden, reason: error.reason))
            }
        case .error, .skipped, .unresolved:
            break
        }
    }
}
