import PopsimCore

/// `compare`'s text report, in the manner of hyperfine: one block per strategy, then a summary
/// against the reference, numbers right-aligned in fixed-width columns. With a `width`, the
/// summary's tables are cut into groups of strategies that fit it, each repeating its first column.
public enum CompareText {
    public static func render(_ c: Comparison, width: Int? = nil, style: TextStyle = .plain) -> String {
        var out = "Scenario: \(c.scenario.name) (\(c.scenario.file))\n"
        if c.scenario.isUncertain { out += NominalVariantNote.text(c.scenario) + "\n" }
        for (i, run) in c.runs.enumerated() {
            out += "\nStrategy \(i + 1): \(run.label)\n"
            out += OptionsText.block(run.result.options, head: "  options:", separator: " ", indent: "    ")
            let m = run.metrics
            out += "  shown \(m.shown), dropped \(m.dropped), lost \(m.lost), overlaps \(m.overlaps), pending \(m.pending)\n"
            out += "  last popup gone \(ms(m.lastGone)), longest wait \(ms(m.longestWait)), mean wait \(ms(m.meanWait))\n"
        }
        out += "\nSummary against \(c.runs[0].label)\n"
        out += indent(table(perPopup(c), group: 3, width: width)) + "\n" + indent(table(totals(c), group: 1, width: width))
        out += "\n"
        if !c.scenario.expectations.isEmpty {
            out += "Properties\n" + indent(table(properties(c), group: 1, width: width)) + "\n"
            for run in c.runs {
                for v in run.verdicts { if let f = v.failure { out += "  \(run.label): \(v.expectation.text): \(f.text)\n" } }
            }
            out += "\n"
        }
        for (run, divergence) in zip(c.runs.dropFirst(), c.divergences) {
            guard let d = divergence else {
                out += "  \(run.label): same timeline as \(c.runs[0].label)\n"
                continue
            }
            out += "  \(run.label) first differs at \(d.t) ms:\n"
            out += "    \(c.runs[0].label): " + d.reference.joined(separator: "; ") + "\n"
            out += "    \(run.label): " + d.other.joined(separator: "; ") + "\n"
        }
        return paintDeltas(safeLines(out), style)
    }

    /// Every line made safe for a terminal (names and labels come from the scenario).
    static func safeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.safe(String($0)) }.joined(separator: "\n")
    }

    /// Each difference to the reference, `(+N)` or `(-N)`, in yellow (the sign says which way).
    static func paintDeltas(_ text: String, _ style: TextStyle) -> String {
        guard style == .color else { return text }
        var out = "", rest = Substring(text)
        while let open = rest.firstIndex(of: "(") {
            out += rest[..<open]
            let tail = rest[open...]
            if let close = tail.firstIndex(of: ")"), let sign = tail.dropFirst().first, sign == "+" || sign == "-",
               tail[tail.index(open, offsetBy: 2)..<close].allSatisfy(\.isNumber) {
                out += style.paint(String(tail[...close]), .yellow)
                rest = tail[tail.index(after: close)...]
            } else {
                out += "("
                rest = tail.dropFirst()
            }
        }
        return out + rest
    }

    static func ms(_ value: Int?) -> String { value.map { "\($0) ms" } ?? "-" }

    /// Rows of cells; the first row is the header. Column 0 is left-aligned, the rest right-aligned.
    static func perPopup(_ c: Comparison) -> [[String]] {
        var header = ["popup"]
        for run in c.runs { header += [run.label, "wait", "preempted"] }
        var rows = [header]
        for name in c.popups {
            var row = [name]
            for run in c.runs {
                let o = run.metrics.outcome(of: name)
                row += [o.firstShown.map(String.init) ?? (o.whyNot ?? "-"), o.wait.map(String.init) ?? "-", String(o.preempted)]
            }
            rows.append(row)
        }
        return rows
    }

    /// Properties × strategies: `holds`, or `fails` with the instant that breaks it.
    static func properties(_ c: Comparison) -> [[String]] {
        var rows = [["property"] + c.runs.map(\.label)]
        for (i, e) in c.scenario.expectations.enumerated() {
            rows.append([e.text] + c.runs.map { run in
                run.verdicts[i].failure.map { "fails at \($0.at) ms" } ?? "holds"
            })
        }
        return rows
    }

    static func totals(_ c: Comparison) -> [[String]] {
        let metrics: [(String, (RunMetrics) -> Int?)] = [
            ("shown", { $0.shown }), ("dropped", { $0.dropped }), ("lost", { $0.lost }),
            ("overlaps", { $0.overlaps }), ("pending", { $0.pending }), ("last gone (ms)", { $0.lastGone }),
            ("longest wait (ms)", { $0.longestWait }), ("mean wait (ms)", { $0.meanWait }),
        ]
        var rows = [["total"] + c.runs.map(\.label)]
        for (name, value) in metrics {
            let reference = value(c.runs[0].metrics)
            var row = [name]
            for (i, run) in c.runs.enumerated() {
                let v = value(run.metrics)
                var cell = v.map(String.init) ?? "-"
                if i > 0, let v, let reference, v != reference { cell += " (\(v > reference ? "+" : "")\(v - reference))" }
                row.append(cell)
            }
            rows.append(row)
        }
        return rows
    }

    /// Aligned rows; with a `width`, cut after column 0 into groups of `group` columns (one
    /// strategy each) that fit it, indented by 2, each group a table of its own.
    static func table(_ rows: [[String]], group: Int = 1, width: Int? = nil) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        var chunks: [[Int]] = []
        var chunk: [Int] = []
        var used = 2 + widths[0]
        for start in stride(from: 1, to: columns, by: group) {
            let cols = Array(start..<min(start + group, columns))
            let need = cols.reduce(0) { $0 + 2 + widths[$1] }
            if let width, !chunk.isEmpty, used + need > width {
                chunks.append(chunk)
                chunk = []
                used = 2 + widths[0]
            }
            chunk += cols
            used += need
        }
        chunks.append(chunk)
        return chunks.map { cols in
            rows.map { row in
                ([0] + cols).map { c in
                    let cell = c < row.count ? row[c] : ""
                    return c == 0 ? cell.rightPadded(to: widths[c]) : cell.leftPadded(to: widths[c])
                }.joined(separator: "  ")
            }.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }
}
