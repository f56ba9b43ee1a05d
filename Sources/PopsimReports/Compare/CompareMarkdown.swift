import PopsimCore

/// `compare --format markdown`: the same summary as tables for a pull-request comment.
public enum CompareMarkdown {
    public static func render(_ c: Comparison) -> String {
        var out = "## \(TerminalText.safe(c.scenario.name))\n\n`\(TerminalText.safe(c.scenario.file))`, reference: `\(escape(c.runs[0].label))`\n\n"
        out += table([["strategy", "options"]] + c.runs.map { run in
            [run.label, run.result.options.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")]
        }) + "\n"
        out += table(CompareText.perPopup(c)) + "\n" + table(CompareText.totals(c))
        if !c.scenario.expectations.isEmpty { out += "\n" + table(CompareText.properties(c)) }
        for (run, divergence) in zip(c.runs.dropFirst(), c.divergences) {
            guard let d = divergence else {
                out += "\n`\(run.label)` has the same timeline as `\(c.runs[0].label)`.\n"
                continue
            }
            out += "\n`\(run.label)` first differs at \(d.t) ms: `\(c.runs[0].label)` "
                + d.reference.joined(separator: "; ") + " — `\(run.label)` " + d.other.joined(separator: "; ") + ".\n"
        }
        return out
    }

    static func table(_ rows: [[String]]) -> String {
        guard let header = rows.first else { return "" }
        var out = "| " + header.map(escape).joined(separator: " | ") + " |\n"
        out += "|" + header.indices.map { $0 == 0 ? " --- |" : " ---: |" }.joined() + "\n"
        for row in rows.dropFirst() { out += "| " + row.map(escape).joined(separator: " | ") + " |\n" }
        return out
    }

    static func escape(_ cell: String) -> String {
        var out = ""
        for c in TerminalText.safe(cell) { out += c == "|" ? "\\|" : String(c) }
        return out
    }
}
