import PopsimCore
import PopsimReports

/// `popsim strategies`: every registered strategy, its summary and its options with defaults;
/// with `--strategy exec:PATH`, that plug-in as its handshake describes it.
enum StrategiesCommand {
    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let parsed = try Arguments.parse(arguments, command: "strategies", console: &console) else { return .success }
        if let extra = parsed.positionals.first {
            throw PopsimError.usage("strategies: unexpected argument \(JSONValue.quoted(extra))")
        }
        let asked = parsed.all("strategy")
        guard !asked.isEmpty else {
            console.out(render(StrategyRegistry.all, columns: console.columns))
            return .success
        }
        let set = try StrategyArguments.set(parsed)
        var entries: [StrategyEntry] = []
        for name in asked {
            guard let entry = set.entry(named: name) else { throw PopsimError.configuration(.unknownStrategy(name)) }
            entries.append(entry)
        }
        console.out(render(entries, columns: console.columns))
        return .success
    }

    /// Strategies and their options, wrapped to `columns` (an option's words go on under it); a
    /// plug-in also lists the popup fields and actions it models.
    /// A plug-in's name, summary and options come from its handshake (and its path from the
    /// user): every text is escaped for the terminal (`TerminalText.safe`), so none can forge a line.
    static func render(_ entries: [StrategyEntry], columns: Int = 80) -> String {
        let safe = TerminalText.safe
        let width = min(entries.map { safe($0.name).count }.max() ?? 0, 24)
        var out = ""
        for entry in entries {
            let name = safe(entry.name)
            if name.count > width {
                out += name + "\n" + String(repeating: " ", count: width + 2)
                    + HelpText.wrapped(safe(entry.summary), first: width + 2, indent: width + 2, width: columns) + "\n"
            } else {
                out += name.rightPadded(to: width) + "  "
                    + HelpText.wrapped(safe(entry.summary), first: width + 2, indent: width + 2, width: columns) + "\n"
            }
            if entry.name.hasPrefix(StrategySet.execPrefix) {
                let pad = String(repeating: " ", count: width + 2)
                let fields = entry.modelledFields.map(\.key).joined(separator: ", ")
                let actions = entry.modelledActions.map(\.keyword).joined(separator: ", ")
                out += pad + HelpText.wrapped("models fields: " + (fields.isEmpty ? "none" : fields) + "; actions: "
                    + (actions.isEmpty ? "none" : actions), first: width + 2, indent: width + 4, width: columns) + "\n"
            }
            for option in entry.options {
                let head = String(repeating: " ", count: width + 2) + "--option \(safe(option.name))=…  "
                let words = safe("\(option.summary) (values: \(option.allowedDescription); default: \(option.defaultValue))")
                out += head + HelpText.wrapped(words, first: head.count, indent: width + 6, width: columns) + "\n"
            }
        }
        return out
    }
}
