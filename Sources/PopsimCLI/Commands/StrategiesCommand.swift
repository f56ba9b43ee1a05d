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
        console.out(render())
        return .success
    }

    static func render() -> String {
        let width = StrategyRegistry.names.map(\.count).max() ?? 0
        var out = ""
        for entry in StrategyRegistry.all {
            out += entry.name.rightPadded(to: width) + "  " + entry.summary + "\n"
            for option in entry.options {
                out += String(repeating: " ", count: width + 2) + "--option \(option.name)=…  "
                    + "\(option.summary) (values: \(option.allowedDescription); default: \(option.defaultValue))\n"
            }
        }
        return out
    }
}
