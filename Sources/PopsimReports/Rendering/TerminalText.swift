/// Text from a scenario (names, ids, screens, conditions, file paths) made safe for a terminal or
/// a CI log: control characters (C0, DEL, C1) and the bidirectional controls that reorder what a
/// terminal shows are written as visible escapes (`\u{1B}`, `\n`), so that no input can clear the
/// screen, set the window title, ring the bell, hide text or reverse a line.
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// C0 controls, DEL, C1 controls, and the bidirectional formatting characters.
    public static func isUnsafe(_ s: Unicode.Scalar) -> Bool { s.isTerminalUnsafe }
}
