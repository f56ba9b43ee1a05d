import Testing
@testable import PopsimCore
import PopsimTestSupport

/// A scenario keeps its rarely read fields in one box shared by copies (`Scenario.Details`): a
/// change to a copy, by assignment or in place, must reach that copy only.
@Suite struct ScenarioCopyTests {
    static let text = """
    {"popsim": 1, "name": "s", "description": "first", "strategy": "fg", "options": {"showMs": 10},
     "popups": {"a": {"priority": 1}}, "events": [{"at": 0, "enqueue": "a"}],
     "expect": ["visible <= 1"]}
    """

    @Test func aChangedCopyLeavesTheOriginalAlone() throws {
        let original = try loadScenario(Self.text, file: "s.json").get()
        var copy = original
        copy.file = "other.json"
        copy.description = "second"
        copy.strategy = "ssp"
        copy.policyFile = "p.json"
        copy.options.append(OptionSetting(name: "hideMs", value: .integer(5)))
        copy.expectations.removeAll()
        copy.uncertainties = []
        #expect(original.file == "s.json" && original.description == "first" && original.strategy == "fg")
        #expect(original.policyFile == nil)
        #expect(original.options.map(\.name) == ["showMs"])
        #expect(original.expectations.map(\.text) == ["visible <= 1"])
        #expect(copy.file == "other.json" && copy.description == "second" && copy.strategy == "ssp")
        #expect(copy.policyFile == "p.json")
        #expect(copy.options.map(\.name) == ["showMs", "hideMs"])
        #expect(copy.expectations.isEmpty)
    }

    @Test func anUnsharedScenarioChangesInPlace() throws {
        var scenario = try loadScenario(Self.text, file: "s.json").get()
        scenario.options.append(OptionSetting(name: "hideMs", value: .integer(5)))
        scenario.expectations.append(contentsOf: scenario.expectations)
        #expect(scenario.options.map(\.name) == ["showMs", "hideMs"])
        #expect(scenario.expectations.map(\.text) == ["visible <= 1", "visible <= 1"])
        #expect(scenario.fieldLocations.count > 0)
    }
}
