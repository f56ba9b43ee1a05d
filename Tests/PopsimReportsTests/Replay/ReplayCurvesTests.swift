import Testing
@testable import PopsimCore
@testable import PopsimReports

/// The sweep curves show their headline (issue 40): a y range fitted to the data and printed at
/// both ends, x labels that never run into each other, standard input named in words.
@Suite("replay curves")
struct ReplayCurvesTests {
    @Test func theYRangeFitsTheData() {
        // 99.8 % to 98.3 % (tenths of a percent): not drawn from 0, where it would look flat.
        #expect(ReplayCurves.yRange([998, 983, 990]) == (low: 982, high: 999))
        // Counts from 0 stay at 0; one value alone still has a range; nothing at all is 0...1.
        #expect(ReplayCurves.yRange([0, 40]) == (low: 0, high: 44))
        #expect(ReplayCurves.yRange([7]) == (low: 6, high: 8))
        #expect(ReplayCurves.yRange([]) == (low: 0, high: 1))
        #expect(ReplayCurves.yRange([Int.max - 1, Int.max]).high == Int.max)
        // A share never past 100 % (16.1 % to 100 % agreeing, not to 107.6 %).
        #expect(ReplayCurves.yRange([237, 1000, 713], percent: true) == (low: 161, high: 1000))
    }

    @Test func xLabelsNeverRunIntoEachOther() {
        // 0, 500, 10000, 30000, 60000 on a 348 px axis: 500 stands 2 px from 0 and gives way.
        let xs = [0, 500, 10_000, 30_000, 60_000]
        let candidates = xs.enumerated().map { (column: $0.offset, x: 56 + $0.element * 348 / 60_000, text: String($0.element)) }
        let kept = ReplayCurves.xLabels(candidates)
        #expect(kept.map(\.text) == ["0", "10000", "30000", "60000"])
        for (a, b) in zip(kept, kept.dropFirst()) { #expect(b.x - a.x >= (a.text.count + b.text.count) * 7 / 2) }
        // The last label is always drawn: the one before it gives way.
        let crowded = [(column: 0, x: 0, text: "0"), (column: 1, x: 100, text: "100000"), (column: 2, x: 120, text: "120000")]
        #expect(ReplayCurves.xLabels(crowded).map(\.text) == ["0", "120000"])
    }
}
