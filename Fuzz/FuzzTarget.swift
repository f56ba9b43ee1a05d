// libFuzzer entry point: load any bytes as a scenario, then run every strategy and every renderer.
// Built by Fuzz/run together with the PopsimKit sources (swiftc -sanitize=fuzzer,address).
// A crash, a sanitizer report or a strategy breaking the engine's rules (exit 70) is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .success(let scenario) = ScenarioLoader.load(bytes, file: "fuzz.json") else { return 0 }
    let limits = RunLimits(maxStepsPerInstant: 2_000, maxSteps: 20_000, checkInvariants: true, trackConditions: true)
    var lanes: [(label: String, result: RunResult)] = []
    for entry in StrategyRegistry.all {
        let options = ResolvedOptions(settings: entry.options.map { OptionSetting(name: $0.name, value: $0.defaultValue) })
        guard entry.validate(scenario).isEmpty else { continue }
        do {
            let result = try entry.run(scenario, options: options, limits: limits)
            lanes.append((entry.name, result))
            var writer = ByteWriter()
            TextRenderer.render(result, into: &writer)
            JSONRenderer.render(result, into: &writer)
            _ = Lint.findings(result, entry: entry)
            _ = TimelineTextParser.sameEntries(try TimelineTextParser.parse(TimelineText.render(result.timeline)), result.timeline)
        } catch let error as RunError where ExitCode.of(error) == .internalError {
            fatalError("finding: \(entry.name): \(error.message)")
        } catch {}
    }
    if lanes.count >= 2 {
        let comparison = Comparison(scenario: scenario, results: lanes)
        _ = CompareText.render(comparison)
        _ = CompareJSON.render(comparison)
        _ = CompareMarkdown.render(comparison)
        _ = Gantt.render(lanes, chart: GanttStyle(columns: 80, ascii: false))
        _ = SVGChart.render(title: scenario.name, lanes: lanes)
    }
    return 0
}
