import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI

@Suite struct StrategyRegistryTests {
    @Test func namesAreUniqueAndSorted() {
        let names = StrategyRegistry.names
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        #expect(names.contains("jc-fifo") && names.contains("jc-lifo"))
    }

    @Test func everyStrategyHasTheSharedOptions() {
        for entry in StrategyRegistry.all {
            for name in ["showMs", "hideMs", "navMs"] {
                #expect(entry.option(named: name) != nil, "\(entry.name) lacks \(name)")
            }
        }
    }

    @Test func jcDefaultsAreJCAlertControllersAnimations() {
        for name in ["jc-fifo", "jc-lifo"] {
            let entry = StrategyRegistry.entry(named: name)
            #expect(entry?.option(named: "showMs")?.defaultValue == .integer(400))
            #expect(entry?.option(named: "hideMs")?.defaultValue == .integer(200))
        }
    }
}

@Suite struct OrdinalTests {
    @Test func ordinalsArePositionsInAllCases() {
        #expect(TimelineEvent.allCases.map(\.ordinal) == Array(TimelineEvent.allCases.indices))
        #expect(Reason.allCases.map(\.ordinal) == Array(Reason.allCases.indices))
    }

    @Test func scenarioEventsStaySmall() {
        #expect(MemoryLayout<ScenarioEvent>.stride == 32)
        #expect(MemoryLayout<Action>.size <= 9)
        #expect(MemoryLayout<Timeline.Entry>.stride == 16, "size \(MemoryLayout<Timeline.Entry>.size) reason \(MemoryLayout<Reason?>.size) event \(MemoryLayout<TimelineEvent>.size)")
    }
}
