/// `expect`: the properties every run of the scenario must keep (docs/scenario-format.md).
extension ScenarioLoader {
    mutating func loadExpectations(_ v: JSONValue) {
        let path = JSONPath.root.appending("expect")
        guard case .array(let list) = v.kind else {
            report(.expected("an array of properties, such as [\"no overlap\"]", got: v.errorDescription), at: v.location, path)
            return
        }
        for (i, item) in list.enumerated() {
            var textValue = item, textPath = path.appending(i)
            var knownToFail: [String] = []
            if case .object = item.kind {
                guard let f = fields(of: item, textPath, allowed: Self.expectationKeys) else { continue }
                guard let p = f["property"] else {
                    report(.missingKey("property", what: "the property, such as \"no overlap\""), at: item.location, textPath)
                    continue
                }
                if let known = f["knownToFail"] { knownToFail = labels(known, textPath.appending("knownToFail")) }
                textValue = p
                textPath = textPath.appending("property")
            }
            guard let text = string(textValue, textPath, nonEmpty: true) else { continue }
            do {
                let property = try PropertyParser.parse(text) { [popupTable] in Self.popupID(named: $0, in: popupTable) }
                scenario.expectations.append(Expectation(property: property, text: text, location: textValue.location, knownToFail: knownToFail))
            } catch {
                // The column points into the text as written (escapes counted as written).
                let hint = Suggestion.phrase(error.unknownPopup.flatMap { popupHint($0) })
                report(.condition(error.message + hint), at: location(inStringAt: textValue.location, offset: error.offset), textPath)
            }
        }
    }

    /// The keys of an `expect` entry written as an object.
    static let expectationKeys = ["property", "knownToFail"]

    /// `knownToFail`: golden labels or strategy names (`swiftmessages`, `policy-launch`), none twice.
    private mutating func labels(_ v: JSONValue, _ path: JSONPath) -> [String] {
        guard case .array(let list) = v.kind else {
            report(.expected("an array of golden labels or strategy names, such as [\"swiftmessages\"]", got: v.errorDescription), at: v.location, path)
            return []
        }
        var out: [String] = []
        for (i, item) in list.enumerated() {
            guard let label = string(item, path.appending(i), nonEmpty: true) else { continue }
            if out.contains(label) {
                report(.expected("a label not listed before", got: item.errorDescription), at: item.location, path.appending(i))
                continue
            }
            out.append(label)
        }
        return out
    }
}
