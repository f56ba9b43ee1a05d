/// One field of a CSV report: its control characters escaped as the text report escapes them
/// (`TerminalText.safe`: a newline as `\n`, ESC as `\u{1B}`), so no raw byte of a catalog's or a
/// trace's names reaches a terminal or a spreadsheet that shows the file; quoted (RFC 4180) when
/// it holds a comma or a quote.
enum CSVField {
    static func escape(_ raw: String) -> String {
        let s = TerminalText.safe(raw)
        return s.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + s.replacingOccurrences("\"", "\"\"") + "\"" : s
    }
}
