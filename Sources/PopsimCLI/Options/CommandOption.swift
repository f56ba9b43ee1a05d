import PopsimCore

/// One command-line option, declared once: its name, the shape of its value, its help, its
/// values and default, what its value completes to, and the commands that take it.
///
/// Why: an option declared apart from its help drifted (a command listed in four places, one
/// option block repeated in five pages, completions missing `explore --format`). Parsing
/// (`Arguments.Spec`), the help pages (`HelpText`), the completion scripts and docs/cli.md's
/// tables (`OptionTables`) are all made from these declarations (`CommandOptions.all`).
/// Contract: no two declarations give one command the same name (a test holds it).
struct CommandOption: Sendable {
    /// What the value completes to in a shell.
    enum Completes: Sendable {
        case nothing, jsonFile, file, directory
        /// The built-in strategies (with `all` first when the command takes it).
        case strategies(all: Bool)
        /// The names a strategy option takes, as `name=`.
        case optionNames
        /// The declared `values`.
        case values
    }

    let name: String
    /// The value's placeholder, `<file>`; nil for a flag.
    let value: String?
    let repeatable: Bool
    let commands: [String]
    /// One paragraph; `values` and `default` are added after it.
    let help: String
    let values: [String]
    let defaultValue: String?
    let completes: Completes

    init(_ name: String, _ value: String? = nil, repeatable: Bool = false, for commands: [String], _ help: String,
         values: [String] = [], default defaultValue: String? = nil, completes: Completes? = nil) {
        self.name = name
        self.value = value
        self.repeatable = repeatable
        self.commands = commands
        self.help = help
        self.values = values
        self.defaultValue = defaultValue
        self.completes = completes ?? (values.isEmpty ? .nothing : .values)
    }

    var spec: Arguments.Spec { Arguments.Spec(name: name, takesValue: value != nil, repeatable: repeatable) }

    /// `--name <value>` as the help page shows it.
    var label: String { "--" + name + (value.map { " " + $0 } ?? "") }

    /// The help with its values and default, as one paragraph.
    var fullHelp: String {
        var parts: [String] = []
        if !values.isEmpty { parts.append("values: " + values.joined(separator: ", ")) }
        if let defaultValue { parts.append("default: " + defaultValue) }
        return parts.isEmpty ? help : help + " (" + parts.joined(separator: "; ") + ")"
    }

    /// The first sentence of the help, without its details (zsh and fish descriptions): up to
    /// the first ". ", " (" or ";".
    var summary: String {
        let chars = Array(help)
        var end = chars.count
        for i in chars.indices where chars[i] == ";" || (i + 1 < chars.count && (chars[i] == "." || chars[i] == " ") && chars[i + 1] == (chars[i] == "." ? " " : "(")) {
            end = i
            break
        }
        var sentence = chars[..<end]
        while let last = sentence.last, last == "." || last == " " { sentence.removeLast() }
        return String(sentence)
    }
}
