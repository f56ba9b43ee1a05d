import PopsimCore

/// `lint --format json`: every finding of every file, for CI systems that read JSON.
public enum LintJSON {
    /// `findings`: per file, in the order run. Keys in a fixed order; ends with a newline.
    public static func render(_ findings: [(file: String, findings: [Lint.Finding])]) -> String {
        let all = findings.flatMap { file in file.findings.map { (file.file, $0) } }
        let hazards = all.filter { $0.1.isHazard }.count
        var out = "{\"popsim\": 1, \"hazards\": \(hazards), \"notes\": \(all.count - hazards), \"findings\": ["
        out += all.enumerated().map { i, item in
            (i == 0 ? "\n" : "") + "  {\"file\": \(JSONValue.literal(item.0)), \"hazard\": \(item.1.isHazard), "
                + "\"line\": \(JSONValue.literal(item.1.line))}"
        }.joined(separator: ",\n")
        return out + (all.isEmpty ? "]}\n" : "\n]}\n")
    }
}
