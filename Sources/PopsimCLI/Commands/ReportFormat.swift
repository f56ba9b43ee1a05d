/// `--format` of the commands whose report is a list of findings or verdicts: lines for people,
/// or one JSON document for CI systems that are not JUnit.
enum ReportFormat: String, CaseIterable {
    case text, json
}
