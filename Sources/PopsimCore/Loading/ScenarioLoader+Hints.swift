/// "did you mean" for the loader: no hint is computed for an error that will not be shown (past
/// `maxErrors`), the popup and state names are indexed once, and one work budget
/// (`SuggestionIndex.defaultBudget`) bounds every hint of a file together.
extension ScenarioLoader {
    /// A hint among a short list (keys, words, strategies, options, buttons).
    mutating func hint(_ word: String, among candidates: [String], atLeast: Int = 1) -> String? {
        var index = SuggestionIndex(candidates)
        return hint(word, atLeast: atLeast, from: &index)
    }

    /// A hint among the declared popups.
    mutating func popupHint(_ name: String) -> String? {
        if popupHints?.candidateCount != scenario.popups.count {
            popupHints = SuggestionIndex(scenario.popups.map(\.name))
        }
        guard var index = popupHints else { return nil }
        defer { popupHints = index }
        return hint(name, atLeast: 1, from: &index)
    }

    /// A hint among the declared state names.
    mutating func stateHint(_ name: String) -> String? {
        if stateHints?.candidateCount != scenario.state.names.count {
            stateHints = SuggestionIndex(scenario.state.names)
        }
        guard var index = stateHints else { return nil }
        defer { stateHints = index }
        return hint(name, atLeast: 1, from: &index)
    }

    private mutating func hint(_ word: String, atLeast: Int, from index: inout SuggestionIndex) -> String? {
        guard errors.count < Self.maxErrors, hintBudget > 0 else { return nil }
        index.budget = hintBudget
        defer { hintBudget = index.budget }
        return index.closest(word, atLeast: atLeast)
    }
}
