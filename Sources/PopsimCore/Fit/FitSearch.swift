/// The search of one start of a `FitSpace` (coarse pass, then coordinate descent on a sample of
/// fit users that grows as the search settles), and the scoring of its finalists on every user.
///
/// The loop: the start's coarse candidates are scored on the smallest sample; from each of the
/// three best, a coordinate descent: option by option, every other value of that option (for
/// `caps`: each rule added, or one removed) is scored, and the best moves the search when it
/// beats where it is, until a pass over every option moves nothing. The best end goes on: the
/// sample grows (256 users, 1,024, 4,096, then every fit user), the best three seen are scored
/// again on it, and the descent goes on from the best. The search ends when it has descended on
/// every fit user, at the start's share of the budget, or when `shouldStop` says so. Its three
/// best candidates (on the largest sample reached) are then scored on every fit and held-out
/// user.
///
/// Contract: deterministic for the data (its seed included) and the budget: nothing depends on
/// threads, time or other starts. A stop leaves the result `stopped` with what was scored.
public struct FitSearch: Sendable {
    public let evaluator: FitEvaluator
    public let space: FitSpace

    /// The sample sizes, smallest first, ending with every fit user.
    public static let sampleSizes = [256, 1024, 4096]
    /// Finalists per start.
    public static let finalists = 3
    /// Descents per start on the smallest sample, from its best first-pass candidates.
    public static let descents = 3

    public init(evaluator: FitEvaluator, space: FitSpace) {
        self.evaluator = evaluator
        self.space = space
    }

    /// A finalist scored on every user.
    public struct Finalist: Sendable, Equatable {
        public var candidate: FitCandidate
        public var fit: FitScore
        public var test: FitScore
        public var misses: [FitMiss]

        public init(candidate: FitCandidate, fit: FitScore, test: FitScore, misses: [FitMiss]) {
            self.candidate = candidate
            self.fit = fit
            self.test = test
            self.misses = misses
        }
    }

    /// What one start gave.
    public struct StartResult: Sendable, Equatable {
        public var start: Int
        public var evaluations: Int
        public var stopped: Bool
        /// Best first.
        public var finalists: [Finalist]

        public init(start: Int, evaluations: Int, stopped: Bool, finalists: [Finalist]) {
            self.start = start
            self.evaluations = evaluations
            self.stopped = stopped
            self.finalists = finalists
        }
    }

    /// Each start's share of `budget` evaluations, by its weight (a scored-only start: 1).
    public func shares(budget: Int) -> [Int] {
        let weights = space.starts.map { $0.scoredOnly ? 0 : max(1, $0.weight) }
        let searched = budget - space.starts.filter(\.scoredOnly).count
        let total = max(1, weights.reduce(0, +))
        var shares = weights.map { $0 == 0 ? 1 : max(1, searched * $0 / total) }
        var left = searched - zip(shares, space.starts).filter { !$1.scoredOnly }.reduce(0) { $0 + $1.0 }
        for i in shares.indices where left > 0 && !space.starts[i].scoredOnly {
            shares[i] += 1
            left -= 1
        }
        return shares
    }

    /// The sample sizes for `n` fit users.
    static func levels(_ n: Int) -> [Int] {
        var sizes = sampleSizes.filter { $0 < n }
        sizes.append(n)
        return sizes
    }

    /// Searches start `s` with `budget` evaluations.
    public func run(start s: Int, budget: Int, shouldStop: @escaping @Sendable () -> Bool,
                    progress: @escaping @Sendable (_ evaluations: Int) -> Void = { _ in }) throws(ReplayFailure) -> StartResult {
        var state = State(search: self, start: space.starts[s], budget: budget, shouldStop: shouldStop, progress: progress)
        try state.explore()
        var finalists: [Finalist] = []
        // A stopped start scores only its best on every user: a stop should not wait for more.
        for c in state.best(state.stopped ? 1 : Self.finalists) {
            guard let configuration = evaluator.configuration(c) else { continue }
            var scratch = evaluator.scratch(for: configuration)
            let (fit, test, misses) = try evaluator.finalScore(configuration, label: c.label, scratch: &scratch)
            finalists.append(Finalist(candidate: c, fit: fit, test: test, misses: misses))
        }
        finalists = Self.ranked(finalists)
        return StartResult(start: s, evaluations: state.evaluations, stopped: state.stopped, finalists: finalists)
    }

    /// Best first: by fit score, then the simpler (fewer options away from their defaults: of
    /// two models that agree as well, the one that assumes less), then by label.
    public static func ranked(_ list: [Finalist]) -> [Finalist] {
        list.sorted { precedes(($0.candidate, $0.fit), ($1.candidate, $1.fit)) }
    }

    /// The order of `ranked`: by score, then fewer options set, then label.
    static func precedes(_ a: (FitCandidate, FitScore), _ b: (FitCandidate, FitScore)) -> Bool {
        if a.1.beats(b.1) { return true }
        if b.1.beats(a.1) { return false }
        return (a.0.settings.count, a.0.label) < (b.0.settings.count, b.0.label)
    }

    /// One start's search under way.
    struct State {
        let search: FitSearch
        let start: FitSpace.Start
        let budget: Int
        let shouldStop: @Sendable () -> Bool
        let progress: @Sendable (Int) -> Void
        let levels: [Int]
        var level = 0
        var evaluations = 0
        var stopped = false
        var exhausted = false
        /// Scores per sample size, by candidate.
        var scores: [[FitCandidate: FitScore]]
        var current: FitCandidate
        /// Candidates the catalog or the strategy rejects (charged once, at any sample).
        var unrunnable = Set<FitCandidate>()
        var runners: [String: FitEvaluator.Scratch] = [:]

        init(search: FitSearch, start: FitSpace.Start, budget: Int, shouldStop: @escaping @Sendable () -> Bool,
             progress: @escaping @Sendable (Int) -> Void) {
            self.search = search
            self.start = start
            self.budget = budget
            self.shouldStop = shouldStop
            self.progress = progress
            levels = FitSearch.levels(search.evaluator.data.fit.count)
            scores = levels.map { _ in [:] }
            current = start.coarse.first ?? FitCandidate(strategy: start.strategy)
        }

        var halted: Bool { stopped || exhausted }

        mutating func explore() throws(ReplayFailure) {
            guard !search.evaluator.data.fit.isEmpty else { return }
            for c in start.coarse { _ = try score(c) }
            guard !start.scoredOnly else { return }
            // A descent from each of the best few of the first pass (they may sit on different
            // slopes: slots 3 against preemption), on the smallest sample; the best goes on.
            var ends: [FitCandidate] = []
            for seed in best(FitSearch.descents) where !halted {
                current = seed
                try descend()
                ends.append(current)
            }
            if let best = try best(of: ends) { current = best }
            while !halted, level + 1 < levels.count {
                let seen = best(3)
                level += 1
                if let best = try best(of: seen) { current = best }
                try descend()
            }
        }

        /// Option by option from `current`, until a pass over every option moves nothing.
        mutating func descend() throws(ReplayFailure) {
            var moved = true
            while moved, !halted {
                moved = false
                for d in start.dimensions where !halted {
                    if let better = try best(of: neighbours(d), over: current), better != current {
                        current = better
                        moved = true
                    }
                }
            }
        }

        /// Every other value of `d` from where the search is.
        func neighbours(_ d: FitSpace.Dimension) -> [FitCandidate] {
            guard d.isCaps else {
                let now = current.value(d.name) ?? d.defaultValue
                return d.values.filter { $0 != now }.map { current.with(d.name, $0, default: d.defaultValue, order: start.order) }
            }
            let rules = (current.value(d.name) ?? d.defaultValue).split(separator: ";").map(String.init).filter { !$0.isEmpty }
            var out: [FitCandidate] = []
            for rule in d.values where !rules.contains(rule) {
                let kind = FitSpace.ruleKind(rule)
                let joined = rules.filter { FitSpace.ruleKind($0) != kind } + [rule]
                out.append(current.with(d.name, joined.joined(separator: ";"), default: d.defaultValue, order: start.order))
            }
            for rule in rules {
                out.append(current.with(d.name, rules.filter { $0 != rule }.joined(separator: ";"), default: d.defaultValue, order: start.order))
            }
            return out
        }

        /// The best of `list` at this level (the first of equals), if it beats `over`'s score.
        mutating func best(of list: [FitCandidate], over: FitCandidate? = nil) throws(ReplayFailure) -> FitCandidate? {
            var best: (FitCandidate, FitScore)?
            if let over, let s = try score(over) { best = (over, s) }
            for c in list {
                guard let s = try score(c) else { continue }
                if best.map({ s.beats($0.1) }) ?? true { best = (c, s) }
            }
            return best?.0
        }

        /// `c`'s score on this level's sample; nil when it cannot run or the search halted.
        mutating func score(_ c: FitCandidate) throws(ReplayFailure) -> FitScore? {
            if let known = scores[level][c] { return known }
            guard !halted else { return nil }
            if shouldStop() {
                stopped = true
                return nil
            }
            guard evaluations < budget else {
                exhausted = true
                return nil
            }
            if unrunnable.contains(c) { return nil }
            evaluations += 1
            progress(1)
            guard let configuration = search.evaluator.configuration(c) else {
                unrunnable.insert(c)
                return nil
            }
            var scratch = runners[c.strategy] ?? search.evaluator.scratch(for: configuration)
            let s = try search.evaluator.score(configuration, label: c.label, users: search.evaluator.data.fit.prefix(levels[level]),
                                                scratch: &scratch)
            runners[c.strategy] = scratch
            scores[level][c] = s
            return s
        }

        /// The `n` best candidates, those scored on the largest sample first (the simpler, then the
        /// first by label, among equals), then the best of smaller samples.
        func best(_ n: Int) -> [FitCandidate] {
            var out: [FitCandidate] = []
            for level in scores.indices.reversed() where out.count < n {
                let seen = scores[level].map { ($0.key, $0.value) }.filter { !out.contains($0.0) }
                out += seen.sorted(by: FitSearch.precedes).prefix(n - out.count).map(\.0)
            }
            return out
        }
    }
}
