import PopsimCore

/// `compare --format markdown`: the same summary as tables for a pull-request comment.
public enum CompareMarkdown {
    public static func render(_ c: Comparison) -> String {
        var out = "## \(escape(c.scenario.name))\n\n\(code(c.scenario.file)), reference: \(code(c.runs[0].label))\n\n"
        out += table([["strategy", "options"]] + c.runs.map { run in
            [run.label, run.result.options.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")]
        }) + "\n"
        out += table(CompareText.perPopup(c)) + "\n" + table(CompareText.totals(c))
        if !c.scenario.expectations.isEmpty { out += "\n" + table(CompareText.properties(c)) }
        for (run, divergence) in zip(c.runs.dropFirst(), c.divergences) {
            guard let d = divergence else {
                out += "\n\(code(run.label)) has the same timeline as \(code(c.runs[0].label)).\n"
                continue
            }
            out += "\n\(code(run.label)) first differs at \(d.t) ms: \(code(c.runs[0].label)) "
                + escape(d.reference.joined(separator: "; ")) + " — \(code(run.label)) " + escape(d.other.joined(separator: "; ")) + ".\n"
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

    /// Text for a heading or a cell: control characters escaped, `|` kept inside its cell, and a
    /// `<` that could open an HTML tag or an `&` that could start an entity written as an entity,
    /// so a name in a scenario is never raw HTML in a pull-request comment (`visible <= 1` stays
    /// as it is).
    static func escape(_ cell: String) -> String {
        var out = ""
        let characters = Array(TerminalText.safe(cell))
        for (i, c) in characters.enumerated() {
            let next = i + 1 < characters.count ? characters[i + 1] : " "
            switch c {
            case "|": out += "\\|"
            case "<" where next.isLetter || "/!?".contains(next): out += "&lt;"
            case "&" where next.isLetter || next.isNumber || next == "#": out += "&amp;"
            default: out.append(c)
            }
        }
        return out
    }

    /// `text` as a code span whose fence is longer than any run of backticks inside it
    /// (CommonMark), so a backtick in a name cannot end the span early.
    static func code(_ text: String) -> String {
        let safe = TerminalText.safe(text)
        var longest = 0, run = 0
        for c in safe {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = safe.hasPrefix("`") || safe.hasSuffix("`") ? " " : ""
        return fence + pad + safe + pad + fence
    }
}
