import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

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

    /// Convention 27: a strategy's header never names a field or action it does not model (what
    /// it ignores is computed from `modelledFields` / `modelledActions`, not written by hand).
    @Test(arguments: StrategyRegistry.all.map(\.name))
    func headerNamesOnlyWhatItModels(_ name: String) throws {
        let entry = try #require(StrategyRegistry.entry(named: name))
        let path = packageRoot.path + "/Sources/PopsimCore/Strategies/\(entry.typeName).swift"
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let header = source.components(separatedBy: "\nstruct ")[0].split(separator: "\n").filter { $0.hasPrefix("///") }
        #expect(!header.isEmpty, "\(path) has no header comment")
        let spans = header.joined(separator: "\n").split(separator: "`", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        for span in spans {
            let word = String(span.prefix { $0.isLetter })
            if let field = PopupField(rawValue: word), !field.isEngine {
                #expect(entry.modelledFields.contains(field), "\(entry.typeName)'s header names `\(span)`, a field it does not model")
            }
            if let action = ActionKind(rawValue: word), action.reachesStrategy {
                #expect(entry.modelledActions.contains(action), "\(entry.typeName)'s header names `\(span)`, an action it does not model")
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

@Suite struct VocabularyTests {
    /// The streaming loader's keyword lookup finds every action (two share a length and first
    /// letter at most) and nothing else.
    @Test func everyKeywordIsFoundByItsBytes() {
        let keywords = ActionKeywords()
        for kind in ActionKind.allCases {
            let bytes = Array(kind.keyword.utf8)
            #expect(bytes.withUnsafeBufferPointer { keywords.kind($0) } == kind)
        }
        for word in ["enqueu", "pressed", "popto", "x", "resumeTimer", "replaceAll", "resumeTimersAndMore"] {
            #expect(Array(word.utf8).withUnsafeBufferPointer { keywords.kind($0) } == nil)
        }
    }
}

@Suite struct PriorityFIFOTests {
    /// Highest priority first, arrival order among equals; removal keeps the rest in order.
    @Test func highestFirstThenArrivalOrder() {
        var q = PriorityFIFO()
        for (i, priority) in [0, 5, 0, 5, 9, 0].enumerated() { q.append(PopupID(i), priority: priority) }
        #expect(q.elements == (0..<6).map { PopupID($0) })
        #expect(q.remove { $0 == PopupID(2) } == [PopupID(2)])
        var order: [PopupID] = []
        while let p = q.popBest() { order.append(p) }
        #expect(order == [4, 1, 3, 0, 5].map { PopupID($0) })
        #expect(q.isEmpty && q.count == 0)
    }
}
