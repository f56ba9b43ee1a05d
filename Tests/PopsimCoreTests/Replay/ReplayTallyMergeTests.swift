import Testing
@testable import PopsimCore
import PopsimTestSupport

/// `ReplayTally.merge` is what lets users, workers and shards be added up in any order and give
/// the same bytes: commutative, associative, with the empty tally as identity — checked on every
/// pair and triple of a set of random tallies (swift-collections' `withEvery` way), every figure
/// of `ReplayFigure.all` among them.
@Suite("replay tallies merge")
struct ReplayTallyMergeTests {
    static let properties = 3

    /// A tally with every figure at a random value (the counts a replay could write).
    static func random(_ seed: UInt64) -> ReplayTally {
        var r = SplitMix64(seed: seed)
        var t = ReplayTally(properties: properties)
        t.users = r.below(1000)
        t.requests = r.below(5000)
        t.shown = r.below(t.requests + 1)
        for i in t.drops.indices where r.below(3) == 0 { t.drops[i] = r.below(100) }
        t.lost = r.below(50)
        t.overlaps = r.below(50)
        t.pending = r.below(50)
        t.mostOnScreen = r.below(4)
        for _ in 0..<r.below(40) { t.waits.add(r.below(2) == 0 ? r.below(256) : r.below(1 << 30)) }
        // A user is one tally's (a worker's, a shard's): rows never repeat across tallies.
        func user(_ k: Int) -> ReplayTally.UserRef {
            let row = 1 + Int(seed % 100_000) * 100 + k
            return ReplayTally.UserRef(row: row, id: "u\(row)")
        }
        for p in 0..<properties {
            for k in 0..<r.below(8) { t.failed(p, user(k * 3 + r.below(3))) }
            t.judgedRequests[p] = r.below(300)
            t.lateRequests[p] = r.below(t.judgedRequests[p] + 1)
        }
        t.agreeing = r.below(t.users + 1)
        for k in 0..<r.below(7) { t.didNotSettle(user(50 + k)) }
        return t
    }

    static func merged(_ a: ReplayTally, _ b: ReplayTally) -> ReplayTally {
        var m = a
        m.merge(b)
        return m
    }

    @Test func mergeIsCommutativeAssociativeAndHasAnIdentity() {
        let tallies = (0..<TestTier.count(quick: 8, full: 14)).map { Self.random(UInt64($0) &* 7919) }
        let empty = ReplayTally(properties: Self.properties)
        for a in tallies {
            #expect(Self.merged(a, empty) == a)
            #expect(Self.merged(empty, a) == a)
            for b in tallies {
                #expect(Self.merged(a, b) == Self.merged(b, a))
                for c in tallies {
                    #expect(Self.merged(Self.merged(a, b), c) == Self.merged(a, Self.merged(b, c)))
                }
            }
        }
    }

    /// Merging saturates: counts read back from forged reports never wrap around.
    @Test func countsSaturate() {
        var a = ReplayTally(properties: 0), b = ReplayTally(properties: 0)
        a.users = Int.max - 1
        b.users = 5
        a.merge(b)
        #expect(a.users == Int.max)
    }
}
