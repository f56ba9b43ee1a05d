import Testing
@testable import PopsimCore
import PopsimTestSupport

/// The pure parts of a replay's plan: the memory budget's arithmetic, the trace formats' names,
/// extensions and sniffs, shards and sweeps.
@Suite("replay: plan, formats, shards and sweeps")
struct ReplayPlanTests {
    @Test func theBudgetIsSharedAndNeverNegative() {
        let plan = SpillPlan(budget: 256 << 20, workers: 2, catalogBytes: 700)
        #expect(!plan.isBelowMinimum)
        #expect(plan.needed + 2 * plan.holdLimit <= plan.budget)
        // Arranging rows by user comes out of the budget too, and takes a share that grows with
        // it: what a worker holds is arranged in at most nine passes, whatever the budget.
        for budget in [96 << 20, 256 << 20, 4 << 30, 64 << 30] {
            for workers in [1, 2, 8] {
                let p = SpillPlan(budget: budget, workers: workers, catalogBytes: 700)
                #expect(p.needed + workers * (p.holdLimit + p.arrangeBytes) <= p.budget, "\(budget) \(workers)")
                #expect(p.holdLimit <= 9 * p.arrangeBytes, "\(budget) \(workers)")
            }
        }
        #expect(plan.holdLimit > 50 << 20)
        #expect(plan.partitionBits == 6 && plan.maxLevels == 4)
        #expect(plan.mustRelease(plan.holdLimit + 1) && !plan.mustRelease(plan.holdLimit))
        // More workers, less each; a bigger budget, more each.
        let four = SpillPlan(budget: 256 << 20, workers: 4, catalogBytes: 700)
        #expect(four.holdLimit < plan.holdLimit)
        #expect(SpillPlan(budget: 1 << 30, workers: 2, catalogBytes: 700).holdLimit > plan.holdLimit)
        // Fewer partitions a level as workers grow, so that the files stay few.
        #expect(SpillPlan(budget: 1 << 30, workers: 64, catalogBytes: 0).partitionBits == 2)
        // Below the minimum: nothing held, every user to partitions, the budget said to be short.
        let tiny = SpillPlan(budget: 1, workers: 2, catalogBytes: 700)
        #expect(tiny.isBelowMinimum && tiny.holdLimit == 0 && tiny.mustRelease(1))
        // A big catalog takes its share before rows do; no arithmetic overflows.
        #expect(SpillPlan(budget: 256 << 20, workers: 2, catalogBytes: 20 << 20).holdLimit < plan.holdLimit)
        #expect(SpillPlan(budget: 1 << 40, workers: 64, catalogBytes: Int.max).isBelowMinimum)
        // A partition is split again while too big, at most `maxLevels` deep.
        #expect(plan.splits(plan.readBackLimit + 1, level: 1) && !plan.splits(plan.readBackLimit, level: 1))
        #expect(!plan.splits(Int.max, level: plan.maxLevels))
        // However small the budget, a part of a mebibyte is read back whole: a tiny budget split a
        // 2 MB trace into 262,144 temporary files (issue 41).
        #expect(SpillPlan(budget: 1, workers: 2, catalogBytes: 0).readBackLimit == 1 << 20)
    }

    @Test func formatsAreToldByNameExtensionAndFirstBytes() {
        #expect(TraceFormats.names == ["csv", "jsonl"])
        #expect(TraceFormats.named("jsonl") == .jsonLines && TraceFormats.named("tsv") == nil)
        #expect(TraceFormats.implied(by: "week.csv") == .csv && TraceFormats.implied(by: "w.ndjson") == .jsonLines)
        #expect(TraceFormats.implied(by: "-") == nil && TraceFormats.implied(by: "trace.txt") == nil)
        func sniff(_ text: String) -> TraceFormat { Array(text.utf8).withUnsafeBufferPointer { TraceFormats.sniffed($0) } }
        #expect(sniff(#"{"user": "u1"}"#) == .jsonLines)
        #expect(sniff("\n  \r\n\t{\"user\": 1}") == .jsonLines)
        #expect(sniff("\u{FEFF}{\"user\": 1}") == .jsonLines)
        #expect(sniff("user,time,action\n") == .csv)
        #expect(sniff("") == .csv)
        #expect(!TraceFormat.csv.splitsAtLineBreaks && TraceFormat.jsonLines.splitsAtLineBreaks)
    }

    @Test func shardsParseContainAndMerge() {
        #expect(Shard.parse("1/3") == Shard(index: 1, count: 3))
        for bad in ["3/3", "-1/2", "1/0", "a/b", "1", "1/2/3", "0/1000001"] { #expect(Shard.parse(bad) == nil, "\(bad)") }
        #expect(Shard.written("01/3") == nil && Shard.written("1/3")?.text == "1/3")
        let s = Shard(index: 2, count: 5)
        #expect(s?.contains(hash: 12) == true && s?.contains(hash: 13) == false && s?.contains(item: 7) == true)
        let all = (0..<3).map { Shard(index: $0, count: 3) }
        #expect(Shard.checkMerge(all.reversed()) == .success(3))
        #expect(Shard.checkMerge([all[0], nil]) == .failure(.notAShard(at: 1)))
        #expect(Shard.checkMerge([all[0], all[0], all[2]]) == .failure(.twice(first: 0, at: 1, shard: all[0]!)))
        #expect(Shard.checkMerge([all[0], all[1]]) == .failure(.missing(index: 2, count: 3)))
        #expect(Shard.checkMerge([all[0], Shard(index: 1, count: 2)]) == .failure(.otherCount(at: 1, shard: Shard(index: 1, count: 2)!, others: 3)))
    }

    @Test func sweepsCountTheirCombinationsWithoutOverflow() throws {
        let sweep = try Sweep.parse(["cooldownMs=0,500", "dailyCap=1,2,3"]).get()
        #expect(sweep.names == ["cooldownMs", "dailyCap"])
        #expect(sweep.combinations == [["0", "1"], ["0", "2"], ["0", "3"], ["500", "1"], ["500", "2"], ["500", "3"]])
        #expect(Sweep.parse(["cooldownMs"]) == .failure(.malformed("cooldownMs")))
        #expect(Sweep.parse(["a=1", "a=2"]) == .failure(.malformed("a=2")))
        #expect(Sweep.parse(["a=1,,2"]) == .failure(.malformed("a=1,,2")))
        // 63 sweeps of two values: 2⁶³ combinations, refused (a product that wraps is never taken).
        #expect(Sweep.parse((0..<63).map { "k\($0)=0,1" }) == .failure(.tooManyCombinations))
        let policy = try #require(StrategyRegistry.entry(named: "policy")), fg = try #require(StrategyRegistry.entry(named: "fg"))
        #expect(!sweep.isBaseline(for: policy) && sweep.isBaseline(for: fg))
        #expect(sweep.overrides(["500", "2"], under: policy) == ["cooldownMs=500", "dailyCap=2"])
    }
}
