import PopsimCore

/// What `popsim fit` found: every start's finalists scored on fit and held-out users, and what
/// the report is of (trace, catalog, settings, shard). A pure value: text, markdown and JSON are
/// rendered from it, and shards' JSON reports merge back into the report of the whole.
///
/// Contract: the ranking, the best and the runners-up are functions of `results` alone (sorted
/// by start), so a merged report is the unsharded one, byte for byte.
public struct FitReport: Sendable, Equatable {
    public var trace: String
    public var traceDigest: String
    public var catalog: String
    public var catalogDigest: String
    /// What else decides the result (holdout, seed, budget, trace layout, limits), digested:
    /// shards of one fit share it.
    public var settings: String
    public var shard: String?
    public var users: Int
    public var fitUsers: Int
    public var testUsers: Int
    public var holdout: String
    public var seed: UInt64
    public var budget: Int
    /// Every start's label, searched ones first, then the candidates only scored.
    public var starts: [String]
    /// How many of `starts` are searched.
    public var searchedStarts: Int
    /// The starts run, by start.
    public var results: [FitSearch.StartResult]
    /// Why the search stopped early (a timeout, a signal), if it did.
    public var incomplete: String?
    /// Where the fitted catalog was written.
    public var output: String?
    /// With `--sweep`: the what-if asked of every model that fits.
    public var whatIf: FitWhatIf?

    public init(trace: String, traceDigest: String, catalog: String, catalogDigest: String, settings: String, shard: String?,
                users: Int, fitUsers: Int, testUsers: Int, holdout: String, seed: UInt64, budget: Int, starts: [String],
                searchedStarts: Int, results: [FitSearch.StartResult]) {
        self.trace = trace
        self.traceDigest = traceDigest
        self.catalog = catalog
        self.catalogDigest = catalogDigest
        self.settings = settings
        self.shard = shard
        self.users = users
        self.fitUsers = fitUsers
        self.testUsers = testUsers
        self.holdout = holdout
        self.seed = seed
        self.budget = budget
        self.starts = starts
        self.searchedStarts = searchedStarts
        self.results = results.sorted { $0.start < $1.start }
    }

    /// Every searched finalist, each candidate once, best first.
    public var ranking: [FitSearch.Finalist] {
        var seen = Set<String>()
        let all = results.filter { $0.start < searchedStarts }.flatMap(\.finalists).filter { seen.insert($0.candidate.label).inserted }
        return FitSearch.ranked(all)
    }

    public var best: FitSearch.Finalist? { ranking.first }
    /// The five after the best.
    public var runnersUp: ArraySlice<FitSearch.Finalist> { ranking.dropFirst().prefix(5) }
    /// The candidates given with `--strategy`, scored on the same split.
    public var scored: [(label: String, finalist: FitSearch.Finalist?)] {
        results.filter { $0.start >= searchedStarts }.map { r in (starts[r.start], r.finalists.first) }
    }

    public var evaluations: Int { results.reduce(0) { $0 + $1.evaluations } }

    /// Runners-up that score exactly as the best on every fit user: the trace cannot tell them
    /// apart from it.
    public var ties: Int {
        guard let best else { return 0 }
        return runnersUp.filter { !$0.fit.beats(best.fit) && !best.fit.beats($0.fit) }.count
    }

    /// The models that fit: every ranked finalist (the best first), then every built-in
    /// candidate scored with `--strategy` (a plug-in is no model a catalog can name), whose
    /// agreement with production, in order and in timing, is at or above the lower ends of the
    /// best's 95 % intervals (`AgreementInterval`), on held-out users (on fit users when none is
    /// held out).
    public var fitting: [FitSearch.Finalist] {
        guard let floors else { return [] }
        let scored = self.scored.compactMap(\.finalist).filter { !$0.candidate.strategy.hasPrefix(StrategySet.execPrefix) }
        return (ranking + scored).filter { f in
            let s = f.test.users > 0 ? f.test : f.fit
            return AgreementInterval.atLeast(s.agreeing, of: s.users, floors.order) && AgreementInterval.atLeast(s.timed, of: s.users, floors.timing)
        }
    }

    /// The lower ends of the best's intervals (basis points), in order and in timing, and the
    /// users they are of (`held out` or `fit`).
    public var floors: (order: Int, timing: Int, users: String)? {
        guard let best else { return nil }
        let heldOut = best.test.users > 0
        let s = heldOut ? best.test : best.fit
        return (AgreementInterval.wilson(s.agreeing, of: s.users).low, AgreementInterval.wilson(s.timed, of: s.users).low,
                heldOut ? "held-out" : "fit")
    }

    /// Points between agreement on fit and held-out users past which the report warns.
    public static let overfitPoints = 3

    /// Whether fit and held-out agreement differ by more than `overfitPoints`.
    public var overfits: Bool {
        guard let best, best.test.users > 0, best.fit.users > 0 else { return false }
        return abs(Scale.map(best.fit.agreeing, 10_000, best.fit.users) - Scale.map(best.test.agreeing, 10_000, best.test.users))
            > Self.overfitPoints * 100
    }
}
