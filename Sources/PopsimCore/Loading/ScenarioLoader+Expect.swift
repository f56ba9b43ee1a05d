/// `expect`: the properties every run of the scenario must keep (docs/scenario-format.md).
extension ScenarioLoader {
    mutating func loadExpectations(_ v: JSONValue) {
        let path = JSONPath.root.appending("expect")
        guard case .array(let list) = v.kind else {
            report(.expected("an array of properties, such as [\"no overlap\"]", got: v.errorDescription), at: v.location, path)
            return
        }
        for (i, item) in list.enumerated() {
            guard let text = string(item, path.appending(i), nonEmpty: true) else { continue }
            do {
                let property = try PropertyParser.parse(text) { [popupTable] in Self.popupID(named: $0, in: popupTable) }
                scenario.expectations.append(Expectation(property: property, text: text, location: item.location))
            } catch {
                // The column points into the text as written (escapes counted as written).
                let hint = Suggestion.phrase(error.unknownPopup.flatMap { popupHint($0) })
                report(.condition(error.message + hint), at: location(inStringAt: item.location, offset: error.offset), path.appending(i))
            }
        }
    }
}
