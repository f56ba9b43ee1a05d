import PopsimCore

/// The what-if of a fit (`FitWhatIf`) for a terminal, as markdown, and as CSV: a table for the
/// whole and for each popup requested, a row per figure, production's column then one per
/// combination of the swept values, each cell the best's value and its range across the models
/// that fit.
public enum FitWhatIfText {
    /// The lines for a terminal (`markdown`: for a pull request), the floors the models that fit
    /// were held to first. `width`: the terminal's, its columns split into blocks that fit.
    static func lines(_ w: FitWhatIf, floors: (order: Int, timing: Int, users: String)?, markdown md: Bool, width: Int?) -> [String] {
        var out: [String] = []
        let safe = { (s: String) -> String in md ? CompareMarkdown.escape(s) : TerminalText.safe(s) }
        let heading = "what-if: \(w.models.count) model\(w.models.count == 1 ? "" : "s") fit"
        out.append(md ? "**\(heading)**" : heading)
        if md { out.append("") }
        if let floors {
            out.append((md ? "" : "  ") + "(agreement with production on \(floors.users) users at least \(FitWhatIf.decimal(floors.order / 10))% in order "
                       + "and \(FitWhatIf.decimal(floors.timing / 10))% in timing: the lower ends of the best's 95% intervals)")
            if md { out.append("") }
        }
        for (i, m) in w.models.enumerated() {
            out.append((md ? "- `" : "  ") + safe(m) + (md ? "`" : "") + (i == 0 ? " (the best)" : ""))
        }
        out.append("")
        out.append((md ? "" : "  ") + "each cell: the best's value, and in brackets its range across the models that fit where they differ")
        let tables = [(nil as Int?, "")] + w.popupGroups.map { ($0, w.replay.groups[$0].name) }
        for (group, name) in tables {
            let rows = w.rows(group: group)
            var table = [[md ? (name.isEmpty ? "all popups" : "popup " + name) : name, "production"] + w.combinations.indices.map(w.name)]
            for r in rows {
                table.append([FitWhatIf.label(r.label, human: true), FitWhatIf.text(r.production, human: true)]
                             + r.ranges.map { FitWhatIf.text($0, human: true) })
            }
            table = table.map { $0.map(safe) }
            out.append("")
            if md {
                out += ReplayText.markdownTable(table, corner: table[0][0]).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            } else {
                if name.isEmpty { table[0][0] = "all popups" }
                let widths = (0..<table[0].count).map { c in table.map { $0[c].count }.max() ?? 0 }
                out += ReplayText.lines(table, width: width, widths: widths).split(separator: "\n", omittingEmptySubsequences: false)
                    .dropFirst().dropLast().map(String.init)
            }
        }
        return out
    }

    /// A line per combination, group and figure: the swept values, the group (`by` and its
    /// name, empty for the whole), the figure, its unit (`count`, `ms`, `%`), production's
    /// value, the best's, and the lowest and highest across the models that fit; then the
    /// models, best first, in a column of their own on the first line only.
    public static func csv(_ w: FitWhatIf) -> String {
        let field = CSVField.escape
        func number(_ v: Int?, _ unit: ReplayCell.Unit) -> String {
            guard let v else { return "" }
            return unit == .tenths ? FitWhatIf.decimal(v) : String(v)
        }
        var out = (w.sweep + ["by", "group", "figure", "unit", "production", "best", "low", "high", "models"]).map(field).joined(separator: ",") + "\n"
        let groups = [nil as Int?] + w.replay.groups.indices.map { Optional($0) }
        var first = true
        for group in groups {
            let by = group.map { w.replay.groups[$0].by.rawValue } ?? "", name = group.map { w.replay.groups[$0].name } ?? ""
            for r in w.rows(group: group) {
                for (v, range) in r.ranges.enumerated() {
                    let unit = range.best.unit
                    let unitName = unit == .ms ? "ms" : unit == .tenths ? "%" : "count"
                    let models = first ? w.models.joined(separator: " ") : ""
                    first = false
                    let fields = w.combinations[v] + [by, name, r.label, unitName, number(r.production.value, unit), number(range.best.value, unit),
                                                      number(range.low, unit), number(range.high, unit), models]
                    out += fields.map(field).joined(separator: ",") + "\n"
                }
            }
        }
        return out
    }
}
