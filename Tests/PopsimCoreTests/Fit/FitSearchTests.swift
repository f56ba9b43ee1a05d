import Dispatch
import Testing
@testable import PopsimCore
import PopsimSystem
import PopsimTestSupport

/// `fit`'s parts: the score's laws, the space, candidates, and the search recovering a known
/// truth — a trace made under a strategy with non-default options (or a policy with several
/// non-default knobs), fitted, and the fitted model replayed on a fresh trace of the same truth.
@Suite struct FitSearchTests {
    static func catalog() throws -> Scenario { try loadScenario(TraceGenerator.catalog).get() }

    /// The users of a trace `gen --trace` would write under `strategy` with `options`.
    static func users(_ n: Int, seed: UInt64, strategy: String, options: [String] = [], catalog: Scenario) throws -> [Replayer.User] {
        var generator = TraceGenerator(users: n, seed: seed, strategy: strategy)
        generator.overrides = try OptionOverride.parseAll(options)
        let text = try generator.csv()
        let layout = TraceLayout(format: .csv)
        var g = UserGatherer(decoder: TraceRowDecoder(file: "t.csv", layout: layout, catalog: catalog), worker: 0, workers: 1, shard: nil,
                             promisedGrouped: false, maxErrors: 0)
        var reader = TraceFormat.csv.makeReader(layout, file: "t.csv")
        Array(text.utf8).withUnsafeBufferPointer { reader.feed($0); g.read(&reader) }
        reader.finish()
        g.read(&reader)
        #expect(g.errorCount == 0)
        var rows: [TimedEntry] = []
        return (0..<g.heldUsers).map { i in
            g.rows(of: i, into: &rows)
            return Replayer.User(id: g.user(i).id, firstRow: g.user(i).firstRow, rows: rows, values: g.values)
        }
    }

    /// Fits `users` over `entries` and returns the report's best and its search results.
    static func fit(_ users: [Replayer.User], catalog: Scenario, entries: [StrategyEntry], budget: Int) throws -> (FitSearch.Finalist, [FitSearch.StartResult]) {
        let data = try FitData(catalog: catalog, users: users, file: "t.csv", holdout: 0.3, seed: 1)
        let search = FitSearch(evaluator: FitEvaluator(data: data, strategies: .builtIn, limits: RunLimits()),
                               space: FitSpace(catalog: catalog, entries: entries))
        let shares = search.shares(budget: budget)
        // The starts on the cores, as the command runs them (each start's result is its own).
        let slots = System.Locked([Result<FitSearch.StartResult, ReplayFailure>?](repeating: nil, count: shares.count))
        DispatchQueue.concurrentPerform(iterations: shares.count) { s in
            let r = Result { () throws(ReplayFailure) -> FitSearch.StartResult in try search.run(start: s, budget: shares[s], shouldStop: { false }) }
            slots.withLock { $0[s] = r }
        }
        let results = try slots.withLock { $0 }.map { try #require($0).get() }
        let best = try #require(FitSearch.ranked(results.flatMap(\.finalists)).first)
        return (best, results)
    }

    /// The share of `users` whose shows under `candidate` are production's, in basis points.
    static func agreement(_ candidate: FitCandidate, _ users: [Replayer.User], catalog: Scenario) throws -> (Int, Int) {
        let data = try FitData(catalog: catalog, users: users, file: "fresh.csv", holdout: 0, seed: 1)
        let evaluator = FitEvaluator(data: data, strategies: .builtIn, limits: RunLimits())
        let configuration = try #require(evaluator.configuration(candidate))
        var scratch = evaluator.scratch(for: configuration)
        let s = try evaluator.score(configuration, label: candidate.label, users: data.users.indices, scratch: &scratch)
        return (s.agreeing, s.users)
    }

    @Test func aBuiltInWithNonDefaultOptionsIsRecovered() throws {
        let catalog = try Self.catalog()
        let truth = ["pauseMs=3000", "dedupe=off"]
        let users = try Self.users(160, seed: 7, strategy: "swiftmessages", options: truth, catalog: catalog)
        let entries = ["fg", "jc-fifo", "swiftmessages", "entrykit"].compactMap(StrategyRegistry.entry(named:))
        let (best, _) = try Self.fit(users, catalog: catalog, entries: entries, budget: 400)
        #expect(best.candidate.strategy == "swiftmessages")
        #expect(best.fit.agreeing == best.fit.users, "\(best.candidate.label): \(best.fit)")
        // The truth's defaults would not do: the options were found, not assumed.
        let (plain, n) = try Self.agreement(FitCandidate(strategy: "swiftmessages"), users, catalog: catalog)
        #expect(plain < n, "the defaults agree with every user: the truth's options decide nothing here")
        let fresh = try Self.users(200, seed: 8, strategy: "swiftmessages", options: truth, catalog: catalog)
        let (agreeing, total) = try Self.agreement(best.candidate, fresh, catalog: catalog)
        #expect(agreeing * 100 >= total * 99, "\(best.candidate.label) agrees with \(agreeing) of \(total) fresh users")
    }

    @Test func aPolicyWithSeveralNonDefaultKnobsIsRecovered() throws {
        let catalog = try Self.catalog()
        let truth = ["order=priority+fifo", "busy=preempt", "busyFor=higher", "cooldownMs=2000"]
        let users = try Self.users(160, seed: 11, strategy: "policy", options: truth, catalog: catalog)
        let (best, _) = try Self.fit(users, catalog: catalog, entries: [StrategyEntry(PolicyStrategy.self)], budget: 700)
        #expect(best.fit.agreeing * 100 >= best.fit.users * 97, "\(best.candidate.label): \(best.fit)")
        let fresh = try Self.users(200, seed: 12, strategy: "policy", options: truth, catalog: catalog)
        let (agreeing, total) = try Self.agreement(best.candidate, fresh, catalog: catalog)
        #expect(agreeing * 100 >= total * 97, "\(best.candidate.label) agrees with \(agreeing) of \(total) fresh users")
        let (plain, n) = try Self.agreement(FitCandidate(strategy: "policy"), fresh, catalog: catalog)
        #expect(plain * 100 < n * 90, "policy's defaults agree with \(plain) of \(n): the knobs decide too little to show a fit")
    }

    @Test func scoresAddUpInAnyOrderAndRankByAgreementThenOverlap() {
        var a = FitScore(), b = FitScore(), c = FitScore()
        (a.users, a.agreeing, a.matched, a.shows) = (10, 7, 30, 70)
        (b.users, b.agreeing, b.matched, b.shows) = (5, 1, 3, 20)
        (c.users, c.agreeing, c.matched, c.shows, c.unsettled) = (3, 3, 9, 18, 0)
        var ab = a; ab.merge(b)
        var ba = b; ba.merge(a)
        #expect(ab == ba)
        var abc1 = ab; abc1.merge(c)
        var bc = b; bc.merge(c)
        var abc2 = a; abc2.merge(bc)
        #expect(abc1 == abc2)
        var zero = a; zero.merge(FitScore())
        #expect(zero == a)
        // More users agreeing wins; then the shows' overlap; a score never beats itself.
        var better = a; better.agreeing = 8
        #expect(better.beats(a) && !a.beats(better) && !a.beats(a))
        var closer = a; closer.matched = 31
        #expect(closer.beats(a) && !a.beats(closer))
        // Counts far past any trace (a shard's report read back) compare without overflow.
        var huge = FitScore(), large = FitScore()
        (huge.users, huge.agreeing, huge.matched, huge.shows) = (1 << 43, 1 << 42, 1 << 42, 1 << 43)
        (large.users, large.agreeing, large.matched, large.shows) = (1 << 43, (1 << 42) - 1, 1 << 42, 1 << 43)
        #expect(huge.beats(large) && !large.beats(huge))
    }

    @Test func theSpaceHasEveryStrategyAndPolicyByBusyRuleWithoutTheAppsAnimationTimes() throws {
        let catalog = try Self.catalog()
        let space = FitSpace(catalog: catalog)
        let names = space.starts.map(\.label)
        #expect(names == StrategyRegistry.all.flatMap { $0.name == "policy" ? ["policy busy=wait", "policy busy=replace", "policy busy=preempt", "policy busy=drop"] : [$0.name] })
        for start in space.starts {
            #expect(!start.dimensions.contains { OptionSpec.shared.contains($0.name) }, "\(start.label)")
            #expect(Set(start.coarse).count == start.coarse.count, "\(start.label): a coarse candidate twice")
        }
        let policy = try #require(space.starts.first { $0.label == "policy busy=preempt" })
        #expect(policy.coarse.count == 4 * 3 * 3 * 4, "order × slots × conditions × busyFor")
        #expect(try #require(space.starts.first { $0.label == "policy busy=wait" }).coarse.count == 4 * 3 * 3)
        #expect(policy.coarse.allSatisfy { $0.value("busy") == "preempt" })
        let cooldown = try #require(policy.dimensions.first { $0.name == "cooldownMs" })
        #expect(cooldown.values.first == "0" && cooldown.values.contains("1000") && cooldown.values.contains("86400000"))
        let caps = try #require(policy.dimensions.first { $0.name == "caps" })
        #expect(caps.isCaps && caps.values.contains("campaign:2/24h") && caps.values.contains("upgrade:gap=30s"))
    }

    @Test func aCandidateKeepsOnlyNonDefaultValuesInTheStrategysOrder() {
        let order = ["order", "busy", "slots"]
        let c = FitCandidate(strategy: "policy").with("slots", "2", default: "1", order: order).with("order", "lifo", default: "fifo", order: order)
        #expect(c.label == "policy:order=lifo,slots=2")
        #expect(c.with("slots", "1", default: "1", order: order).label == "policy:order=lifo")
        #expect(FitSpace.ruleKind("campaign:2/24h") == FitSpace.ruleKind("campaign:1/24h"))
        #expect(FitSpace.ruleKind("campaign:1/1h") != FitSpace.ruleKind("campaign:1/24h"))
        #expect(FitSpace.ruleKind("key:promo:gap=30s") == "key:promo:gap")
    }

    @Test func theSplitDependsOnTheIdsAndTheSampleOnTheSeed() throws {
        let catalog = try Self.catalog()
        let users = try Self.users(120, seed: 3, strategy: "fg", catalog: catalog)
        let a = try FitData(catalog: catalog, users: users, file: "t", holdout: 0.3, seed: 1)
        let b = try FitData(catalog: catalog, users: users.reversed(), file: "t", holdout: 0.3, seed: 2)
        #expect(a.test == b.test && Set(a.fit) == Set(b.fit) && a.fit != b.fit)
        #expect(a.test.count > 20 && a.test.count < 60, "\(a.test.count) of 120 held out at 0.3")
        let none = try FitData(catalog: catalog, users: users, file: "t", holdout: 0, seed: 1)
        #expect(none.test.isEmpty && none.fit.count == 120)
    }
}
