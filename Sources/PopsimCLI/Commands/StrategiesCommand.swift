import PopsimCore
import PopsimReports

/// `popsim strategies`: every registered strategy, its summary and its options with defaults.
enum StrategiesCommand {
    static let specs = [Arguments.Spec(name: "help", takesValue: false)]

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let parsed = try Arguments.parse(arguments, command: "strategies", specs: specs, console: &console) else { return .success }
        if let extra = parsed.positionals.first {
            throw PopsimError.usage("strategies: unexpected argument \(JSONValue.quoted(extra))")
        }
        console.out(render(columns: console.columns))
        return .success
    }

    /// Every strategy and its options, wrapped to `columns` (an option's words go on under it).
    static func render(columns: Int = 80) -> String {
        let width = StrategyRegistry.names.map(\.count).max() ?? 0
        var out = ""
        for entry in StrategyRegistry.all {
            out += entry.name.rightPadded(to: width) + "  "
                + HelpText.wrapped(entry.summary, first: width + 2, indent: width + 2, width: columns) + "\n"
            for option in entry.options {
                let head = String(repeating: " ", count: width + 2) + "--option \(option.name)=…  "
                let words = "\(option.summary) (values: \(option.allowedDescription); default: \(option.defaultValue))"
                out += head + HelpText.wrapped(words, first: head.count, indent: width + 6, width: columns) + "\n"
            }
        }
        return out
    }
}
