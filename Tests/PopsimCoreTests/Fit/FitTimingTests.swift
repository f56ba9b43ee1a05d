import Testing
@testable import PopsimCore
import PopsimTestSupport

/// `fit` scores timing after order (issue 65): users who agree in order agree in timing when each
/// show and each dismissal is within `Replayer.tolerance` of production's; of two models that show
/// the same popups in the same order, the one that keeps production's times wins.
@Suite struct FitTimingTests {
    static let truth = ["order=priority+fifo", "busy=preempt", "busyFor=higher", "cooldownMs=2000"]

    /// The score of `candidate` on every one of `users` (none held out), under `catalog`.
    static func score(_ candidate: FitCandidate, _ users: [Replayer.User], catalog: Scenario) throws -> FitScore {
        let data = try FitData(catalog: catalog, users: users, file: "t.csv", holdout: 0, seed: 1)
        let evaluator = FitEvaluator(data: data, strategies: .builtIn, limits: RunLimits())
        let configuration = try #require(evaluator.configuration(candidate))
        var scratch = evaluator.scratch(for: configuration)
        return try evaluator.score(configuration, label: candidate.label, users: data.users.indices, scratch: &scratch)
    }

    static func truthCandidate(_ options: [String] = truth) -> FitCandidate {
        FitCandidate(strategy: "policy", settings: options.map { o in
            let pair = o.split(separator: "=", maxSplits: 1).map(String.init)
            return FitCandidate.Setting(name: pair[0], value: pair[1])
        })
    }

    /// The truth agrees with every user in order and in timing (each user answering each show at
    /// a time of its own); a cooldown half a second short keeps the order for most users but not
    /// the times, and a catalog whose upgrade prompt hides itself after 4 s (production's users
    /// took up to 5.3 s to answer it) loses the timing of the users who answered late: both score
    /// below the truth.
    @Test func aModelWithTheRightOrderAndTheWrongTimingScoresLower() throws {
        let catalog = try FitSearchTests.catalog()
        let users = try FitSearchTests.users(200, seed: 21, strategy: "policy", options: Self.truth, catalog: catalog)
        let truth = try Self.score(Self.truthCandidate(), users, catalog: catalog)
        #expect(truth.agreeing == truth.users && truth.timed == truth.users, "\(truth)")
        let shorter = try Self.score(Self.truthCandidate(Self.truth.dropLast() + ["cooldownMs=1500"]), users, catalog: catalog)
        #expect(shorter.timed < shorter.agreeing && truth.beats(shorter), "\(shorter)")
        var quick = catalog
        let upgrade = try #require(quick.popups.firstIndex { $0.name == "upgrade" })
        quick.popups[upgrade].duration = .ms(4000)
        let hurried = try Self.score(Self.truthCandidate(), users, catalog: quick)
        #expect(hurried.timed < truth.timed && truth.beats(hurried), "\(hurried)")
        // Order alone does not tell the hurried model apart as often as timing does.
        #expect(truth.agreeing - hurried.agreeing < truth.timed - hurried.timed, "\(hurried)")
    }

    /// Between scores that agree with as many users, more users in timing wins, before the
    /// shows' overlap.
    @Test func timingRanksAfterOrderAndBeforeOverlap() {
        var a = FitScore()
        (a.users, a.agreeing, a.timed, a.matched, a.shows) = (10, 7, 5, 30, 70)
        var timelier = a
        timelier.timed = 6
        timelier.matched = 29
        #expect(timelier.beats(a) && !a.beats(timelier))
        var moreInOrder = a
        moreInOrder.agreeing = 8
        moreInOrder.timed = 0
        #expect(moreInOrder.beats(timelier))
        var merged = a
        merged.merge(timelier)
        #expect(merged.timed == 11 && merged.isConsistent)
        var broken = a
        broken.timed = 8
        #expect(!broken.isConsistent)
    }

    /// A trace made under a policy, each user answering each show at a time of its own, is fitted
    /// back to a model that agrees in order and in timing with every held-out user (the full tier:
    /// the search takes a while in a debug build).
    @Test(.enabled(if: TestTier.full)) func aPolicysTraceIsFittedBackInOrderAndInTiming() throws {
        let catalog = try FitSearchTests.catalog()
        let users = try FitSearchTests.users(300, seed: 5, strategy: "policy", options: Self.truth, catalog: catalog)
        let (best, _) = try FitSearchTests.fit(users, catalog: catalog, entries: [StrategyEntry(PolicyStrategy.self)], budget: 3000)
        #expect(best.test.agreeing == best.test.users && best.test.timed == best.test.users, "\(best.candidate.label): \(best.test)")
    }
}
