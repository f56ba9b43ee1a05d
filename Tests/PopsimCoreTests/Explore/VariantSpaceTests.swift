import Testing
@testable import PopsimCore
import PopsimTestSupport

/// The numbering of variants: every variant once, the nominal one first, the sample's fixed part.
@Suite("variant space")
struct VariantSpaceTests {
    static let text = #"{"popsim": 1, "popups": {"a": {}, "b": {}, "c": {}}, "events": [{"at": [0, 2], "enqueue": "a"}, {"at": 5, "enqueue": ["a", "b", "c"], "order": "any"}, {"at": 9, "enqueue": "c", "maybe": true}]}"#

    @Test func everyVariantOnceNominalFirst() throws {
        let scenario = try loadScenario(Self.text).get()
        let space = VariantSpace(scenario)
        #expect(space.radices == [3, 6, 2] && space.count == 36)
        let all = (0..<space.count).map(space.variant)
        #expect(Set(all).count == 36)
        #expect(all[0] == Variant.nominal(of: scenario))
        #expect(Set(all.map(\.orders[1])).count == 6)
        #expect(all.map(\.times[0]).allSatisfy { (0...2).contains($0) })
    }

    @Test func permutationsInLexicographicOrder() {
        #expect((0..<6).map { VariantSpace.permutation($0, of: 3) } == [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    }

    @Test func aSampleStartsWithTheNominalVariantAndTheWindowEnds() throws {
        let scenario = try loadScenario(Self.text).get()
        let plan = VariantSpace(scenario).plan(budget: 10, seed: 4)
        #expect(!plan.exhaustive && plan.count == 10)
        #expect(plan[0] == Variant.nominal(of: scenario))
        #expect(plan[1].times[0] == 2)
        // Computed on demand, the same each time.
        #expect(plan[7] == plan[7])
    }

    /// Issue 30, item 2: the sample's fixed part held a whole variant per window (windows ×
    /// windows entries: a 678 KB file peaked at 1.5 GB); it holds an index per window now, each
    /// variant computed when asked. 40,000 windows and a budget as large: 1.6 billion entries
    /// before, 40,000 now.
    @Test func theWindowEndsAreComputedNotStored() {
        let n = 40_000
        let uncertainties = (0..<n).map { Uncertainty(event: $0, window: $0...($0 + 3)) }
        let space = VariantSpace(uncertainties: uncertainties)
        let plan = space.plan(budget: n, seed: 1)
        #expect(!plan.exhaustive && plan.ends.count == n - 1)
        #expect(plan[0].times == (0..<n).map { $0 })
        let end = plan[123]
        #expect(end.times[122] == 125 && end.times[121] == 121 && end.times[123] == 123)
        #expect(plan[n - 1].times[n - 2] == n + 1)
    }

    @Test func applyingAVariantWritesItIn() throws {
        let scenario = try loadScenario(Self.text).get()
        let v = Variant(times: [9, 5, 9], orders: [[], [2, 0, 1], []], present: [true, true, false])
        let plain = scenario.applying(v)
        #expect(plain.uncertainties.isEmpty)
        #expect(plain.events.map(\.at) == [5, 9])
        if case .enqueueMany(let list) = plain.events[0].action { #expect(list.map { plain.name(of: $0) } == ["c", "a", "b"]) }
    }
}
