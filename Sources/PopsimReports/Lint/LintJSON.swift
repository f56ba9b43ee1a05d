import PopsimCore

/// `lint --format json`: every finding of every file, for CI systems that read JSON.
public enum LintJSON {
    /// `findings`: per file, in the order run. Keys in a fixed order; ends with a newline.
    public static func render(_ findings: [(file: String, findings: [Lint.Finding])]) -> String {
        let all = findings.flatMap { file in file.findings.map { (file.file, $0) } }
        let hazards = all.filter { $0.1.isHazard }.count
        var out = JSONObjectWriter()
        out.add("popsim", 1)
        out.add("hazards", hazards)
        out.add("notes", all.count - hazards)
        out.add("findings", json: JSONObjectWriter.lines(all.map { file, finding in
            var item = JSONObjectWriter()
            item.add("file", file)
            item.add("hazard", finding.isHazard)
            item.add("line", finding.line)
            return item.closed
        }, indent: "  ", closing: ""))
        return out.closed + "\n"
    }
}
