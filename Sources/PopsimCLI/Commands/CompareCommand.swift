import PopsimCore
import PopsimReports

/// `popsim compare FILE --strategy A --strategy B …`: one scenario under several strategies.
///
/// Contract: strategies run in the order given, each once; the first is the reference (with
/// `all`: the first named, else the file's own strategy). A strategy is written
/// `name` or `name:option=value,option=value`. Formats: text (default), json, markdown, and the
/// charts gantt, svg and html (one lane per strategy). Exit 0, or 2 for bad usage or input.
enum CompareCommand {
    enum Format: String, CaseIterable { case text, json, markdown, gantt, svg, html, trace }


    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "compare", console: &console) else { return .success }
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw PopsimError.usage("compare: expected exactly one scenario file; see 'popsim help compare'")
        }
        guard StrategyRegistry.expandingAll(args.all("strategy")).count >= 2 else {
            throw PopsimError.usage("compare: expected at least two --strategy, e.g. --strategy fg --strategy jc-lifo")
        }
        let format = try args.choice("format", Format.self, command: "compare", default: .text)
        try OutputGuard.refuse(output: args.value("output"), inputs: OutputGuard.inputs(args), command: "compare")
        let guards = try Guards(args, command: "compare")
        let limits = guards.limits
        guards.arm(console)
        var set = try StrategyArguments.set(args, maxBytes: guards.maxBytes)
        let scenario: Scenario
        do {
            scenario = try ScenarioSource.load(path, maxBytes: guards.maxBytes, strategies: &set)
        } catch {
            return console.report(error)
        }
        let strategies = ordered(args.all("strategy"), fileStrategy: scenario.strategy)
        guard strategies.count >= 2 else {
            throw PopsimError.usage("compare: expected at least two different --strategy, got \(strategies.joined()) twice")
        }
        // Charts draw every timeline; the tables need only the reference's and the run at hand.
        let chart = ![Format.text, .json, .markdown].contains(format)
        var comparison = Comparison(scenario: scenario)
        let progress = console.progressLine()
        defer { progress?.finish() }
        for (n, spec) in strategies.enumerated() {
            let (name, overrides) = try parse(spec)
            var limits = limits
            limits.progress = RunCommand.eventProgress(progress, "compare: \(spec) (\(n + 1) of \(strategies.count))")
            do {
                let result = try Pipeline.run(scenario, strategy: name, overrides: OptionOverride.parseAll(overrides), limits: limits,
                                              strategies: set)
                comparison.add(label: spec, result: result, keepTimeline: chart)
            } catch {
                return console.report(error, context: "compare: --strategy \(spec)")
            }
        }
        if format == .svg || format == .html,
           let refusal = ChartSize.refusal(comparison.runs.reduce(0) { $0 + $1.result.timeline.chartMarks }, args: args, command: "compare") {
            return console.report(refusal)
        }
        let color = try args.choice("color", ColorMode.self, command: "compare", default: .auto)
        let style = args.value("output") == nil ? console.style(for: color) : .plain
        let report = render(comparison, format: format, style: style, console: console, args: args)
        return RunCommand.emit(report, to: args.value("output"), console: &console)
    }

    static func render(_ c: Comparison, format: Format, style: TextStyle, console: Console, args: Arguments) -> String {
        switch format {
        case .text:
            return CompareText.render(c, width: args.value("output") == nil ? console.columns : nil, style: style)
        case .json: return CompareJSON.render(c)
        case .markdown: return CompareMarkdown.render(c)
        case .gantt:
            return Gantt.render(c.runs.map { ($0.label, $0.result) }, chart: GanttStyle(console: console, args: args, style: style))
        case .svg: return SVGChart.render(title: c.scenario.name, lanes: c.runs.map { ($0.label, $0.result) })
        case .html: return HTMLChart.render(title: c.scenario.name, file: c.scenario.file, lanes: c.runs.map { ($0.label, $0.result) })
        case .trace: return TraceChart.render(lanes: c.runs.map { ($0.label, $0.result) })
        }
    }

    /// The strategies to run, in order, each once: `all` stands for every built-in one, and then
    /// the reference (the first) is the first one named, else the file's own strategy.
    static func ordered(_ given: [String], fileStrategy: String?) -> [String] {
        var list = StrategyRegistry.expandingAll(given)
        if given.contains("all"), let reference = given.first(where: { $0 != "all" }) ?? fileStrategy,
           let at = list.firstIndex(of: reference) {
            list.insert(list.remove(at: at), at: 0)
        }
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }

    /// `name` or `name:option=value,option=value`.
    static func parse(_ spec: String) throws(PopsimError) -> (String, [String]) {
        // A plug-in's name holds a ':' of its own and takes no options here.
        if spec.hasPrefix(StrategySet.execPrefix) { return (spec, []) }
        guard let colon = spec.firstIndex(of: ":") else { return (spec, []) }
        let name = String(spec[..<colon])
        let rest = spec[spec.index(after: colon)...]
        guard !rest.isEmpty else { throw PopsimError.usage("compare: --strategy \(spec): expected options after ':'") }
        return (name, rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }
}
