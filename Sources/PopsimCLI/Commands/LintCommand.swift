import PopsimCore
import PopsimReports

/// `popsim lint FILE…`: runs each scenario and lists what its strategy ignores and the hazards hit.
///
/// Output: one line per finding on stdout, then `N hazards, N notes`. Exit 0 when no hazard was
/// found, 1 when one was, 2 for bad input.
enum LintCommand {
    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "lint", console: &console) else { return .success }
        guard !args.positionals.isEmpty else { throw PopsimError.usage("lint: expected at least one scenario file; see 'popsim help lint'") }
        let format = try args.choice("format", ReportFormat.self, command: "lint", default: .text)
        let style = console.style(for: try args.choice("color", ColorMode.self, command: "lint", default: .auto))
        let guards = try Guards(args, command: "lint")
        guards.arm(console)
        if args.flag("load-only") { return loadOnly(args.positionals, maxBytes: guards.maxBytes, console: &console) }
        var outcome = ExitCode.success
        var limits = guards.limits
        limits.recordStates = true
        let progress = console.progressLine()
        limits.progress = RunCommand.eventProgress(progress, "lint")
        defer { progress?.finish() }
        var all: [(file: String, findings: [Lint.Finding])] = []
        let strategies = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        for path in args.positionals {
            var strategies = strategies
            guard let result = RunCommand.runOne(path, command: "lint", args: args, limits: limits, maxBytes: guards.maxBytes,
                                                 strategies: &strategies, console: &console, outcome: &outcome),
                  let entry = strategies.entry(named: result.strategy) else { continue }
            all.append((path, Lint.findings(result, entry: entry)))
        }
        guard outcome == .success else { return outcome }
        let findings = all.flatMap(\.findings)
        let hazards = findings.filter(\.isHazard).count, notes = findings.count - hazards
        switch format {
        case .json:
            console.out(LintJSON.render(all))
        case .text:
            for finding in findings { console.out(style.paint(finding.line, finding.isHazard ? .red : .dim) + "\n") }
            console.out("\(hazards) hazard\(hazards == 1 ? "" : "s"), \(notes) note\(notes == 1 ? "" : "s")\n")
        }
        return hazards > 0 ? .difference : .success
    }

    /// Loads and validates each file, runs nothing: `FILE: N popups, N events`.
    static func loadOnly(_ paths: [String], maxBytes: Int, console: inout Console) -> ExitCode {
        var outcome = ExitCode.success
        for (k, path) in paths.enumerated() {
            do {
                let s = try ScenarioSource.load(path, maxBytes: maxBytes)
                console.out("\(path): \(s.popups.count) popups, \(s.events.count) events\n")
                // Only the last is kept to exit: one scenario in memory at a time.
                if k == paths.count - 1 { LastRun.keep(s) }
            } catch {
                outcome = outcome.worst(console.report(error))
            }
        }
        return outcome
    }
}
