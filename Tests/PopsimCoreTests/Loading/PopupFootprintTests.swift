import Testing
@testable import PopsimCore

/// Issue 30, item 5: each declared popup cost 0.7–1.4 KB (a 20 MB file needed 1 GB). What a popup
/// costs now is stated in docs/guarantees.md ("Memory"); these bounds keep it so: the value
/// itself, and 12 bytes a field set in one table per scenario, no array per popup.
@Suite struct PopupFootprintTests {
    @Test func aPopupIsAtMost208Bytes() {
        #expect(MemoryLayout<Popup>.stride <= 208, "Popup is \(MemoryLayout<Popup>.stride) bytes")
        #expect(MemoryLayout<PopupNumbers>.stride <= 72)
        #expect(MemoryLayout<PopupFieldSet>.stride == 4)
        #expect(MemoryLayout<FieldLocations.Entry>.stride == 12)
    }

    @Test func fieldPlacesAreOneTableInFileOrder() throws {
        let text = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {"key": "k", "priority": 3}, "b": {}, "c": {"ttlMs": 5}}}"#
        let scenario = try ScenarioLoader.load(Array(text.utf8), file: "s.json", catalog: StrategyRegistry.catalog).get()
        #expect(scenario.fieldLocations.count == 3)
        #expect(scenario.fieldLocations.of(scenario.popups[0]).map(\.field) == [.key, .priority])
        #expect(scenario.fieldLocations.of(scenario.popups[1]).isEmpty)
        #expect(scenario.fieldLocations.location(of: .ttlMs, in: scenario.popups[2]) == SourceLocation(line: 1, column: 102))
        #expect(Array(scenario.popups[0].fieldsSet) == [.priority, .key])
    }
}
