import PopsimCore
import PopsimReports

/// A small command-line parser: options with values, repeatable options, flags and positionals.
///
/// Accepts `--name value` and `--name=value`; `--` ends the options. Unknown options and empty
/// values are usage errors, an unknown option with a "did you mean" hint.
struct Arguments {
    struct Spec {
        var name: String
        var takesValue: Bool
        var repeatable = false
    }

    var positionals: [String] = []
    private var values: [(String, String?)] = []

    init(_ arguments: [String], command: String, specs: [Spec]) throws(PopsimError) {
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            if name == "-h" { name = "--help" }
            guard let spec = specs.first(where: { "--" + $0.name == name }) else {
                let known = specs.map { "--" + $0.name }
                let hint = Suggestion.didYouMean(name, among: known)
                throw PopsimError.usage("\(command): unknown option \(JSONValue.quoted(name))\(hint)")
            }
            if !spec.takesValue {
                if inline != nil { throw PopsimError.usage("\(command): \(name) takes no value") }
                values.append((spec.name, nil))
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if i < arguments.count {
                value = arguments[i]
                i += 1
            } else {
                throw PopsimError.usage("\(command): \(name) needs a value")
            }
            // An empty value is an unset variable (`--save "$DIR"`), never a meaning: `--save ""`
            // once wrote into `/`.
            if value.isEmpty { throw PopsimError.usage("\(command): \(name) needs a value, got an empty one (an unset variable?)") }
            values.append((spec.name, value))
            if !spec.repeatable, values.filter({ $0.0 == spec.name }).count > 1 {
                throw PopsimError.usage("\(command): \(name) given more than once")
            }
        }
    }

    /// Parses a command's arguments against its declared options (`CommandOptions`); for `--help` / `-h` prints the command's help page instead
    /// and returns nil.
    static func parse(_ arguments: [String], command: String, console: inout Console) throws(PopsimError) -> Arguments? {
        let args = try Arguments(arguments, command: command, specs: CommandOptions.specs(for: command))
        guard args.flag("help") else { return args }
        console.out(HelpText.forCommand(command) ?? HelpText.main)
        return nil
    }

    func flag(_ name: String) -> Bool { values.contains { $0.0 == name } }

    func value(_ name: String) -> String? { values.last { $0.0 == name }?.1 }

    func all(_ name: String) -> [String] { values.filter { $0.0 == name }.compactMap(\.1) }

    /// The value of a choice option, checked against its words.
    func choice<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type, command: String, default value: E) throws(PopsimError) -> E
    where E.RawValue == String {
        guard let text = self.value(name) else { return value }
        guard let chosen = E(rawValue: text) else {
            let words = E.allCases.map(\.rawValue)
            throw PopsimError.usage("\(command): --\(name): expected one of \(words.joined(separator: ", ")); got \(JSONValue.quoted(text))")
        }
        return chosen
    }
}
