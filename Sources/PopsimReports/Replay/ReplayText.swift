import PopsimCore

/// The replay's table for a terminal (columns split to fit `width`) or as Markdown.
public enum ReplayText {
    public static func render(_ r: ReplayReport, width: Int?) -> String {
        var out = "replay: \(r.trace) with \(r.catalog): \(r.tallies.production.users) users, \(r.rows) rows"
        if let shard = r.shard { out += ", shard \(shard)" }
        if r.badRows + r.userErrors > 0 { out += "; \(r.badRows + r.userErrors) bad rows skipped with their \(r.skippedUsers) users" }
        out += "\n"
        let table = r.table
        let widths = (0..<table[0].count).map { c in table.map { $0[c].count }.max() ?? 0 }
        // Columns after the label, in groups that fit the width.
        var groups: [[Int]] = []
        var current: [Int] = []
        var used = widths[0]
        for c in 1..<widths.count {
            if let width, !current.isEmpty, used + 2 + widths[c] > width {
                groups.append(current)
                current = []
                used = widths[0]
            }
            current.append(c)
            used += 2 + widths[c]
        }
        if !current.isEmpty { groups.append(current) }
        for group in groups {
            out += "\n"
            for row in table {
                var line = row[0] + String(repeating: " ", count: widths[0] - row[0].count)
                for c in group { line += "  " + String(repeating: " ", count: widths[c] - row[c].count) + row[c] }
                out += line + "\n"
            }
        }
        let named = r.namedFailures
        if !named.isEmpty {
            out += "\nfirst users where it fails (by first row):\n"
            for n in named {
                let more = n.users.count == ReplayTally.named ? ", …" : ""
                out += "  \(n.column): \(n.property): " + n.users.map { "\($0.id) (row \($0.row))" }.joined(separator: ", ") + more + "\n"
            }
        }
        return out
    }

    public static func markdown(_ r: ReplayReport) -> String {
        var out = "## replay: \(r.trace) with \(r.catalog)\n\n"
        out += "\(r.tallies.production.users) users, \(r.rows) rows"
        if let shard = r.shard { out += ", shard \(shard)" }
        if r.badRows + r.userErrors > 0 { out += "; \(r.badRows + r.userErrors) bad rows skipped with their \(r.skippedUsers) users" }
        out += ".\n\n"
        let table = r.table
        func cells(_ row: [String]) -> String { "| " + row.map { $0.replacingOccurrences("|", "\\|") }.joined(separator: " | ") + " |\n" }
        out += cells(["figure"] + table[0].dropFirst())
        out += "|---|" + String(repeating: "---:|", count: table[0].count - 1) + "\n"
        for row in table.dropFirst() { out += cells(row) }
        let named = r.namedFailures
        if !named.isEmpty {
            out += "\nFirst users where it fails (by first row):\n\n"
            for n in named {
                out += "- \(n.column): `\(n.property)`: " + n.users.map { "\($0.id) (row \($0.row))" }.joined(separator: ", ") + "\n"
            }
        }
        return out
    }

    /// One line per column (production first), a field per figure: for spreadsheets and sweeps.
    public static func csv(_ r: ReplayReport) -> String {
        let table = r.table
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences("\"", "\"\"") + "\"" : s
        }
        // With a sweep: the strategy and each swept value in a field of its own, for plotting.
        let swept = r.sweep.isEmpty ? [] : ["strategy"] + r.sweep
        var out = (["column"] + swept + table.dropFirst().map { $0[0] }).map(field).joined(separator: ",") + "\n"
        let offset = r.hasProduction ? 1 : 0
        for c in 1..<table[0].count {
            let i = c - 1 - offset
            let sweepFields = swept.isEmpty ? [] : i < 0 ? ["production"] + r.sweep.map { _ in "" } : [r.bases[i]] + r.sweepValues[i]
            out += ([table[0][c]] + sweepFields + table.dropFirst().map { $0[c] }).map(field).joined(separator: ",") + "\n"
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
