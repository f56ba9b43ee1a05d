import PopsimCore
import PopsimReports

/// The help pages, made from the list of commands (`PopsimCommand.all`), each page's prose
/// (`HelpPages`) and the declared options (`CommandOptions`). `popsim help run` is asserted
/// verbatim in tests.
enum HelpText {
    /// The column where an option's or argument's help starts.
    static let column = 26

    /// `popsim help NAME`: a command's page, the format reference or the option tables.
    static func forCommand(_ name: String) -> String? {
        switch name {
        case "format": return format
        case "options": return "# The options of each command\n\n" + OptionTables.markdown()
        default: return PopsimCommand.named(name).map(page)
        }
    }

    /// A command's page: sections separated by one empty line.
    static func page(_ command: PopsimCommand) -> String {
        let p = command.page
        var sections = [wrapped("OVERVIEW: " + command.summary, first: 0, indent: 0, width: 80) + "\n"]
        if let about = p.about { sections.append(wrapped(about, first: 0, indent: 0, width: 80) + "\n") }
        sections.append("EXAMPLES:\n" + p.examples.map { "  " + $0 + "\n" }.joined())
        sections.append("USAGE: " + p.usage.joined(separator: "\n       ") + "\n")
        if !p.arguments.isEmpty {
            let names = PopsimCommand.all.map(\.name).joined(separator: ", ")
            sections.append("ARGUMENTS:\n" + p.arguments.map { row($0.0, $0.1.replacing("{commands}", with: names)) }.joined())
        }
        if p.listsOptions {
            sections.append("OPTIONS:\n" + command.options.map {
                $0.name == "help" ? row("-h, --help", $0.help) : row($0.label, $0.fullHelp)
            }.joined())
        }
        if let codes = p.exitCodes { sections.append("EXIT CODES:\n  " + wrapped(codes, indent: 2) + "\n") }
        return sections.joined(separator: "\n")
    }

    /// One line (or more) of a list: the label at column 2, its help wrapped from `column`.
    static func row(_ label: String, _ help: String) -> String {
        let head = "  " + label
        if head.count + 2 > column {
            return head + "\n" + String(repeating: " ", count: column) + wrapped(help, indent: column) + "\n"
        }
        return head + String(repeating: " ", count: column - head.count) + wrapped(help, indent: column) + "\n"
    }

    static var main: String {
        var out = """
            OVERVIEW: popsim simulates how an app schedules its popups, on a virtual clock.

            A scenario file lists popups and a timed script (enqueues, state changes, user
            responses); a strategy modelled on a real scheduler library decides what shows
            when; popsim prints the exact show/hide timeline, byte for byte the same each
            run.

            EXAMPLES:
              popsim run Scenarios/jc-article-demo.json
              popsim run Scenarios/jc-article-demo.json --strategy jc-lifo --format json
              popsim check Scenarios/
              popsim compare Scenarios/first-launch.json --strategy fg --strategy jc-lifo
              popsim lint Scenarios/fg-remove.json
              popsim strategies

            USAGE: popsim <subcommand> [options]

            SUBCOMMANDS:

            """
        for command in PopsimCommand.all { out += row(command.synopsis, command.summary) }
        out += """

            OPTIONS:
              -h, --help              Show help information.
              --version               Show the version.

            EXIT CODES:
              0 success, 1 a check found a difference or lint a hazard, 2 bad usage or bad
              input, 70 internal error (a strategy broke the engine's rules: a bug in
              popsim).

            """
        return out
    }

    /// Words wrapped to 80 columns, breaking at spaces or after commas; continuation lines are
    /// indented by `indent` (the first line starts there already).
    static func wrapped(_ text: String, indent: Int, width: Int = 80) -> String {
        wrapped(text, first: indent, indent: indent, width: width)
    }

    /// The same, with the first line starting at column `first`.
    static func wrapped(_ text: String, first: Int, indent: Int, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        var word = ""
        func place(_ piece: String) {
            let start = lines.isEmpty ? first : indent
            if !line.isEmpty && start + line.count + piece.count > width {
                lines.append(line.trailingSpacesRemoved)
                line = ""
            }
            line += line.isEmpty ? piece.drop { $0 == " " }.description : piece
        }
        for c in text {
            word.append(c)
            if c == " " || c == "," {
                place(word)
                word = ""
            }
        }
        place(word)
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    /// The scenario format's reference, made from the vocabulary (docs/scenario-format.md holds
    /// the same tables).
    static var format: String { "# The scenario format: actions and popup fields\n\n" + FormatReference.markdown() }
}
