/// `popsim compare FILE --strategy A --strategy B …`: one scenario under several strategies.
///
/// Contract: strategies run in the order given; the first is the reference. A strategy is written
/// `name` or `name:option=value,option=value`. Formats: text (default), json, markdown, and the
/// charts gantt, svg and html (one lane per strategy). Exit 0, or 2 for bad usage or input.
enum CompareCommand {
    enum Format: String, CaseIterable { case text, json, markdown, gantt, svg, html }

    static let specs: [Arguments.Spec] = [
        .init(name: "strategy", takesValue: true, repeatable: true),
        .init(name: "format", takesValue: true),
        .init(name: "output", takesValue: true),
        .init(name: "ascii", takesValue: false),
        .init(name: "help", takesValue: false),
    ] + Guards.specs

    static func execute(_ arguments: [String], console: inout Console) throws(UsageError) -> ExitCode {
        let args = try Arguments(arguments, command: "compare", specs: specs)
        if args.flag("help") {
            console.out(HelpText.compare)
            return .success
        }
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw UsageError("compare: expected exactly one scenario file; see 'popsim help compare'")
        }
        let strategies = args.all("strategy")
        guard strategies.count >= 2 else {
            throw UsageError("compare: expected at least two --strategy, e.g. --strategy fg --strategy jc-lifo")
        }
        let format = try args.choice("format", Format.self, command: "compare", default: .text)
        let guards = try Guards(args, command: "compare")
        let limits = guards.limits
        guards.arm(console)
        let scenario: Scenario
        switch ScenarioSource.load(path, maxBytes: guards.maxBytes) {
        case .success(let s): scenario = s
        case .failure(let errors):
            for error in errors.errors { console.error(error.line) }
            return .badInput
        }
        var results: [(label: String, result: RunResult)] = []
        for spec in strategies {
            let (name, overrides) = try parse(spec)
            do {
                let configuration = try RunConfiguration.resolve(scenario, strategy: name, overrides: overrides)
                results.append((spec, try configuration.run(scenario, limits: limits)))
            } catch let error as UsageError {
                throw UsageError("compare: --strategy \(spec): " + error.message)
            } catch let error as LoadErrors {
                for line in error.errors { console.error(line.line) }
                return .badInput
            } catch let error as RunError {
                console.error(error.message)
                return ExitCode.of(error)
            } catch {
                console.error("popsim: internal error: \(error)")
                return .internalError
            }
        }
        let comparison = Comparison(scenario: scenario, results: results)
        let report = render(comparison, format: format, console: console, args: args)
        return RunCommand.emit(report, to: args.value("output"), console: &console)
    }

    static func render(_ c: Comparison, format: Format, console: Console, args: Arguments) -> String {
        switch format {
        case .text: return CompareText.render(c)
        case .json: return CompareJSON.render(c)
        case .markdown: return CompareMarkdown.render(c)
        case .gantt:
            return Gantt.render(c.runs.map { ($0.label, $0.result) }, chart: GanttStyle(console: console, args: args))
        case .svg: return SVGChart.render(title: c.scenario.name, lanes: c.runs.map { ($0.label, $0.result) })
        case .html: return SVGChart.html(title: c.scenario.name, lanes: c.runs.map { ($0.label, $0.result) })
        }
    }

    /// `name` or `name:option=value,option=value`.
    static func parse(_ spec: String) throws(UsageError) -> (String, [String]) {
        guard let colon = spec.firstIndex(of: ":") else { return (spec, []) }
        let name = String(spec[..<colon])
        let rest = spec[spec.index(after: colon)...]
        guard !rest.isEmpty else { throw UsageError("compare: --strategy \(spec): expected options after ':'") }
        return (name, rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }
}
