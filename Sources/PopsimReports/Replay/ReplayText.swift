import PopsimCore

/// The replay's table for a terminal (columns split to fit `width`) or as Markdown.
///
/// Contract: what the trace or the command line wrote (user ids, event names, the trace's path,
/// a plug-in's label) is never written raw: a terminal gets its control and bidirectional
/// characters as visible escapes (`TerminalText.safe`), Markdown also its `|`, `<` and `&`
/// (`CompareMarkdown.escape`), so that no user id can move the cursor, forge a line or be HTML in
/// a job summary (issue 41).
public enum ReplayText {
    /// The report for a terminal; `by`: the figures of each group of popups gathered so (each
    /// popup, level or key) after the whole's.
    public static func render(_ r: ReplayReport, width: Int?, by: ReplayGroups.By? = nil) -> String {
        let safe = TerminalText.safe
        var out = "replay: \(safe(r.trace)) with \(safe(r.catalog)): \(r.tallies.production.users) users, \(r.rows) rows"
        if let shard = r.shard { out += ", shard \(safe(shard))" }
        if r.badRows + r.userErrors > 0 { out += "; \(r.badRows + r.userErrors) bad rows skipped with their \(r.skippedUsers) users" }
        out += safe(r.unmappedWords)
        out += "\n"
        let table = r.table.map { $0.map(safe) }
        let groups = by.map { r.groups(by: $0, requested: true).map { r.table(group: $0).map { $0.map(safe) } } } ?? []
        // One set of column widths for the whole and its groups: their columns line up.
        let widths = (0..<table[0].count).map { c in ([table] + groups).map { t in t.map { $0[c].count }.max() ?? 0 }.max() ?? 0 }
        out += lines(table, width: width, widths: widths)
        if let by {
            out += "\nby \(by.rawValue)" + (groups.isEmpty ? ": " + none(by, in: r) : " (those requested):") + "\n"
            for t in groups { out += lines(t, width: width, widths: widths) }
        }
        let notes = r.notes
        if !notes.isEmpty { out += "\n" + notes.map { "note: " + safe($0) + "\n" }.joined() }
        let named = r.namedFailures
        if !named.isEmpty {
            out += "\nfirst users where it fails (by first row):\n"
            for n in named {
                let more = n.users.count == ReplayTally.named ? ", …" : ""
                out += "  \(safe(n.column)): \(safe(n.property)): " + n.users.map { "\(safe($0.id)) (row \($0.row))" }.joined(separator: ", ") + more + "\n"
            }
        }
        return out
    }

    /// Why there is no group to show: none requested, or none in the catalog.
    static func none(_ by: ReplayGroups.By, in r: ReplayReport) -> String {
        if !r.groups(by: by).isEmpty { return "no \(by.rawValue) was requested" }
        switch by {
        case .popup: return "the catalog has no popup"
        case .level: return "no popup of the catalog has a level"
        case .key: return "no popup of the catalog has a key"
        }
    }

    /// A table's lines, its columns after the label in blocks that fit `width`, each block after
    /// a blank line.
    static func lines(_ table: [[String]], width: Int?, widths: [Int]) -> String {
        var out = ""
        var blocks: [[Int]] = []
        var current: [Int] = []
        var used = widths[0]
        for c in 1..<widths.count {
            if let width, !current.isEmpty, used + 2 + widths[c] > width {
                blocks.append(current)
                current = []
                used = widths[0]
            }
            current.append(c)
            used += 2 + widths[c]
        }
        if !current.isEmpty { blocks.append(current) }
        for block in blocks {
            out += "\n"
            for row in table {
                var line = row[0] + String(repeating: " ", count: widths[0] - row[0].count)
                for c in block { line += "  " + String(repeating: " ", count: widths[c] - row[c].count) + row[c] }
                out += line + "\n"
            }
        }
        return out
    }

    public static func markdown(_ r: ReplayReport, by: ReplayGroups.By? = nil) -> String {
        let escape = CompareMarkdown.escape
        var out = "## replay: \(escape(r.trace)) with \(escape(r.catalog))\n\n"
        out += "\(r.tallies.production.users) users, \(r.rows) rows"
        if let shard = r.shard { out += ", shard \(escape(shard))" }
        if r.badRows + r.userErrors > 0 { out += "; \(r.badRows + r.userErrors) bad rows skipped with their \(r.skippedUsers) users" }
        out += escape(r.unmappedWords)
        out += ".\n\n"
        out += markdownTable(r.table, corner: "figure")
        if let by {
            let groups = r.groups(by: by, requested: true)
            if groups.isEmpty { out += "\nBy \(by.rawValue): \(none(by, in: r)).\n" }
            for g in groups {
                out += "\n### \(by.rawValue) \(escape(r.groups[g].name))\n\n" + markdownTable(r.table(group: g), corner: "figure")
            }
        }
        let notes = r.notes
        if !notes.isEmpty { out += "\n" + notes.map { "> Note: " + escape($0) + "\n" }.joined(separator: ">\n") }
        let named = r.namedFailures
        if !named.isEmpty {
            out += "\nFirst users where it fails (by first row):\n\n"
            for n in named {
                out += "- \(escape(n.column)): \(CompareMarkdown.code(n.property)): " + n.users.map { "\(escape($0.id)) (row \($0.row))" }.joined(separator: ", ") + "\n"
            }
        }
        return out
    }

    static func markdownTable(_ table: [[String]], corner: String) -> String {
        func cells(_ row: [String]) -> String { "| " + row.map(CompareMarkdown.escape).joined(separator: " | ") + " |\n" }
        var out = cells([corner] + table[0].dropFirst())
        out += "|---|" + String(repeating: "---:|", count: table[0].count - 1) + "\n"
        for row in table.dropFirst() { out += cells(row) }
        return out
    }

    /// One line per column (production first), a field per figure: for spreadsheets and sweeps.
    /// Its columns are the same for any trace: every drop reason, settling and agreement have
    /// one (empty, or 0, where they do not apply). Names are escaped as the text report escapes
    /// them (a newline as `\n`).
    public static func csv(_ r: ReplayReport) -> String {
        let table = r.table(every: true)
        let field = CSVField.escape
        // With a sweep: the strategy and each swept value in a field of its own, for plotting.
        let swept = r.sweep.isEmpty ? [] : ["strategy"] + r.sweep
        let labels = table.dropFirst().map { $0[0] }
        var out = (["column"] + swept + ["by", "group"] + labels).map(field).joined(separator: ",") + "\n"
        let offset = r.hasProduction ? 1 : 0
        func lines(_ table: [[String]], by: String, group: String) {
            // A group's table has fewer rows (no figure of a whole run; only the drop reasons
            // it has): its cells go under the whole's labels, empty where it has none.
            var at: [String: Int] = [:]
            for (k, row) in table.enumerated().dropFirst() { at[row[0]] = k }
            for c in 1..<table[0].count {
                let i = c - 1 - offset
                let sweepFields = swept.isEmpty ? [] : i < 0 ? ["production"] + r.sweep.map { _ in "" } : [r.bases[i]] + r.sweepValues[i]
                let cells = labels.map { label in at[label].map { table[$0][c] } ?? "" }
                out += ([table[0][c]] + sweepFields + [by, group] + cells).map(field).joined(separator: ",") + "\n"
            }
        }
        lines(table, by: "", group: "")
        for g in r.groups.indices where g < r.tallies.productionGroups.count {
            var t = r.table(group: g, every: true)
            t[0][0] = ""
            lines(t, by: r.groups[g].by.rawValue, group: r.groups[g].name)
        }
        return out
    }
}

extension String {
    /// Every `a` replaced by `b` (Foundation-free).
    func replacingOccurrences(_ a: Character, _ b: String) -> String {
        var out = ""
        for ch in self { if ch == a { out += b } else { out.append(ch) } }
        return out
    }
}
