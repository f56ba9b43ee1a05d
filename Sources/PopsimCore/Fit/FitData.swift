/// A trace's users made ready for `fit`: each user's scenario (the catalog with the user's rows
/// as its script), production's answers and shows, and the split into users the search fits on
/// and users held back to test it.
///
/// Why built once: a fit replays the same users under hundreds of candidates; the scenario,
/// answers and production's shows of a user do not depend on the candidate, so each is decoded
/// once (issue 44: "a trace decoded once and held for every candidate").
///
/// Contract: the split depends on the user ids and `holdout` only (a stable hash of each id, not
/// the seed); the order the search samples fit users in depends on the ids and the seed. Neither
/// depends on the rows' order in the trace or on the number of threads.
public struct FitData: Sendable {
    public struct User: Sendable {
        public var ref: ReplayTally.UserRef
        public var rows: Int
        var scenario: Scenario
        /// Production's answers, show by show, on its shows.
        var answers: ProductionAnswers
        /// Production's shows in order, their times and their dismissals' (from the user's first
        /// row), as replay's agreement reads them.
        var productionScreen: ProductionScreen { answers.screen }
    }

    public let catalog: Scenario
    /// Every user, in order of their first row.
    public let users: [User]
    /// Indices of the users fitted on, in the seed's sampling order (a sample is a prefix).
    public let fit: [Int]
    /// Indices of the held-out users, in row order.
    public let test: [Int]
    /// Per user, whether it is held out.
    public let isTest: [Bool]

    /// The users of `trace` (each `Replayer.User`, any order), split with `holdout` (0 to 1: the
    /// share held back) and sampled with `seed`.
    public init(catalog: Scenario, users given: [Replayer.User], file: String, holdout: Double, seed: UInt64) throws(ReplayFailure) {
        self.catalog = catalog
        let replayer = Replayer(catalog: catalog, columns: [], limits: RunLimits(), file: file)
        var events: [ScenarioEvent] = []
        var list: [User] = []
        list.reserveCapacity(given.count)
        for u in given.sorted(by: { $0.firstRow < $1.firstRow }) {
            let scenario = try replayer.scenario(u, u.ref, events: &events)
            var answers = ProductionAnswers()
            answers.read(u, popups: catalog.popups.count)
            list.append(User(ref: u.ref, rows: u.rows.count, scenario: scenario, answers: answers))
        }
        users = list
        var fit: [(UInt64, Int)] = [], test: [Int] = []
        for (i, u) in list.enumerated() {
            let h = Self.hash(u.ref.id)
            // The top 53 bits as a share in [0, 1).
            if Double(Self.mix(h) >> 11) / Double(1 << 53) < holdout { test.append(i) } else { fit.append((Self.mix(h ^ seed), i)) }
        }
        self.fit = fit.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1)
        self.test = test
        var isTest = [Bool](repeating: false, count: list.count)
        for i in test { isTest[i] = true }
        self.isTest = isTest
    }

    /// FNV-1a 64 of an id's UTF-8 bytes.
    static func hash(_ id: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in id.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// SplitMix64's finaliser: every bit of `x` reaches every bit of the result.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
