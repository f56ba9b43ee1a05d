import PopsimCore

/// A run's options as `name=value` words, wrapped to a width: a strategy with many options (a
/// policy has 30) must not print a line wider than a terminal.
enum OptionsText {
    static func words(_ options: ResolvedOptions) -> [String] {
        // A plug-in names its own options, and `--option` values are the user's: both escaped.
        options.settings.map { TerminalText.safe("\($0.name)=\($0.value)") }
    }

    /// `head`, `separator` and the words on one line when that fits in `width` columns; else
    /// `head` alone and the words on lines starting with `indent`, each within `width` (a word
    /// longer than that has a line of its own). Ends with a newline.
    static func block(_ options: ResolvedOptions, head: String, separator: String, indent: String, width: Int = 80) -> String {
        let all = words(options)
        let oneLine = head + separator + all.joined(separator: " ")
        guard oneLine.count > width else { return oneLine + "\n" }
        var out = head + "\n", line = ""
        for word in all {
            if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
                out += indent + line + "\n"
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return out + indent + line + "\n"
    }
}
