import PopsimCore

/// The verdicts of a run's `expect`, as the text report prints them after its summary:
/// `expect: 2 hold, 1 fails`, then `holds  no overlap` or `fails  A before B: <evidence>`.
public enum VerdictText {
    public static func render(_ verdicts: [PropertyVerdict]) -> String {
        guard !verdicts.isEmpty else { return "" }
        let failed = verdicts.filter { !$0.holds }.count
        let held = verdicts.count - failed
        var out = "\nexpect: \(held) hold\(held == 1 ? "s" : ""), \(failed) fail\(failed == 1 ? "s" : "")\n"
        for v in verdicts { out += "  " + line(v) + "\n" }
        return out
    }

    /// `holds  no overlap` or `fails  no overlap: warning b overlap at 300 ms`; a vacuous pass
    /// carries its note: `holds  wait promo <= 500 (promo was dropped at 0 ms and never shown; …)`.
    public static func line(_ v: PropertyVerdict) -> String {
        let text = TerminalText.safe(v.expectation.text)
        guard let failure = v.failure else { return "holds  " + text + (v.noteText.map { " (\(TerminalText.safe($0)))" } ?? "") }
        return "fails  \(text): \(TerminalText.safe(failure.text))"
    }
}
