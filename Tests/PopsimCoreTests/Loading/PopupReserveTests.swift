import Testing
@testable import PopsimCore

/// The popups' list is reserved from the rate of the first 4,096 (ScenarioLoader+Stream.swift),
/// at most 8 times what was read: small popups followed by a big `events` array once reserved
/// for all the file's bytes as if they were popups (gigabytes under the 256 MiB input limit).
@Suite struct PopupReserveTests {
    @Test func aGuessIsAtMostEightTimesWhatWasRead() throws {
        let popups = (0..<5000).map { #""p\#($0)": {}"# }.joined(separator: ",")
        let events = Array(repeating: #"{"at": 0, "enqueue": "p1"}"#, count: 60_000).joined(separator: ",")
        let text = #"{"popsim": 1, "strategy": "fg", "popups": {\#(popups)}, "events": [\#(events)]}"#
        let scenario = try ScenarioLoader.load(Array(text.utf8), file: "s.json", catalog: StrategyRegistry.catalog).get()
        #expect(scenario.popups.count == 5000 && scenario.events.count == 60_000)
        #expect(scenario.popups.capacity <= 8 * 4096 + 64, "capacity \(scenario.popups.capacity)")
    }
}
