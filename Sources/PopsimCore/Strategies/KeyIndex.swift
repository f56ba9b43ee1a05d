/// A small table from a popup's `key` (default `default`) to a dense index, for per-key state.
struct KeyIndex {
    let ofPopup: [Int]
    let count: Int

    init(_ scenario: Scenario, defaultKey: String = "default") {
        var names: [String: Int] = [:]
        ofPopup = scenario.popups.map { popup in
            let key = popup.key ?? defaultKey
            if let i = names[key] { return i }
            names[key] = names.count
            return names.count - 1
        }
        count = names.count
    }

    subscript(_ p: PopupID) -> Int { ofPopup[Int(p.index)] }
}
