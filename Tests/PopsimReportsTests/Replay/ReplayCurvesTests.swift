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

    /// Times read as a person says them, a range in one unit where both ends have it.
    @Test func timesReadInHumanUnits() {
        #expect([0, 680, 999, 1_000, 4_800, 30_000, 59_999, 60_000, 90_000, 3_600_000, 5_400_000].map(HumanTime.text)
                == ["0 ms", "680 ms", "999 ms", "1 s", "4.8 s", "30 s", "1 min", "1 min", "1.5 min", "1 h", "1.5 h"])
        #expect(HumanTime.range(4_800, 32_800) == "4.8–32.8 s")
        #expect(HumanTime.range(800, 1_200) == "800 ms–1.2 s")
    }

    /// Panels whose every value is 0 fold into lines of text, never one too long to read.
    @Test func zeroPanelsFoldIntoLines() {
        let names = (1...30).map { "figure \($0)" }
        let lines = ReplayCurves.folded(names)
        #expect(lines.count > 1 && lines.allSatisfy { $0.count <= 110 })
        #expect(lines.joined(separator: " ").contains("figure 1, figure 2") && lines.last?.hasSuffix("figure 30") == true)
    }
}
