import PopsimCore
import PopsimReports

/// Runs any bytes through everything popsim does: load, every strategy, every renderer, lint,
/// compare. The fuzz target (`Fuzz/run` compiles this file into it) and the regression tests
/// share it. It lives beside the test support, not in Reports: it runs strategies, and Reports
/// only renders a run's result.
///
/// Contract: returns the internal errors found (a strategy breaking the engine's rules); any
/// crash is a crash of popsim. Bad input and runs that do not settle are not findings.
public enum Exercise {
    public static func everything(_ bytes: [UInt8]) -> [String] {
        surfaces(bytes) + scenario(bytes)
    }

    static func scenario(_ bytes: [UInt8]) -> [String] {
        guard let scenario = try? Pipeline.load(bytes, file: "fuzz.json") else { return [] }
        let limits = RunLimits(maxStepsPerInstant: 2_000, maxSteps: 20_000, checkInvariants: true, recordStates: true)
        var findings: [String] = []
        var lanes: [(label: String, result: RunResult)] = []
        for entry in StrategyRegistry.all where entry.validate(scenario).isEmpty {
            do {
                let result = try entry.run(scenario, options: .defaults(of: entry.options), limits: limits)
                lanes.append((entry.name, result))
                var writer = ByteWriter()
                TextRenderer.render(result, into: &writer)
                JSONRenderer.render(result, into: &writer)
                _ = Lint.findings(result, entry: entry)
                let parsed = try TimelineTextParser.parse(TimelineText.render(result.timeline))
                if !TimelineTextParser.sameEntries(parsed, result.timeline) { findings.append("\(entry.name): timeline does not round-trip") }
            } catch let error as RunError where error.isInternal {
                findings.append("\(entry.name): \(RunErrorText.message(error))")
            } catch {}
        }
        if lanes.count >= 2 {
            let comparison = Comparison(scenario: scenario, results: lanes)
            _ = CompareText.render(comparison)
            _ = CompareJSON.render(comparison)
            _ = CompareMarkdown.render(comparison)
            _ = Gantt.render(lanes, chart: GanttStyle(columns: 80, ascii: false))
            _ = SVGChart.render(title: scenario.name, lanes: lanes)
            _ = HTMLChart.render(title: scenario.name, file: scenario.file, lanes: lanes)
            _ = TraceChart.render(lanes: lanes)
        }
        return findings
    }
}
