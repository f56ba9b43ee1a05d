/// What one column of a replay (a strategy, a policy, a plug-in, or production) added up over
/// users: counts, drops by reason, the waits' histogram, failing properties.
///
/// Contract: `merge` is commutative and associative and every field is a sum, a maximum, a
/// histogram or the first users by trace row, so users, jobs and shards may be added in any
/// order and give the same bytes.
public struct ReplayTally: Sendable, Equatable {
    /// How many users to name for each failing property (and for runs that did not settle).
    public static let named = 5

    public var users = 0
    /// `enqueue` lines (the production column: `enqueue` rows).
    public var requests = 0
    /// Requests that were shown (a show that answers a request opened by an `enqueue`).
    public var shown = 0
    /// `drop` lines, per `Reason.allCases` index.
    public var drops: [Int] = Array(repeating: 0, count: Reason.allCases.count)
    public var lost = 0
    public var overlaps = 0
    /// Popups still queued when a user's run ended.
    public var pending = 0
    public var mostOnScreen = 0
    /// From each shown request to its show.
    public var waits = WaitHistogram()
    /// Per property of the catalog's `expect`: users where it fails, and the first of them.
    public var failures: [Int]
    public var failing: [[UserRef]]
    /// Per property `wait X <= N`: the requests of X, and those not shown within N — dropped,
    /// lost, still waiting at the end, or shown later (0 and 0 for other properties). A request
    /// dropped fails here, so that a rule that drops more cannot look better (docs/replay.md).
    public var judgedRequests: [Int]
    public var lateRequests: [Int]
    /// Users whose popups shown, in order, are production's; the first of the others.
    public var agreeing = 0
    public var disagreeing: [UserRef] = []
    /// Users who agree with production in timing as well (`Replayer.inTime`), and the first of
    /// those who agree in order only.
    public var timed = 0
    public var untimed: [UserRef] = []
    /// Users whose run stopped before its end (a runaway), and the first of them.
    public var unsettled = 0
    public var unsettledUsers: [UserRef] = []

    /// A user, by the trace row of their first row.
    public struct UserRef: Sendable, Equatable, Comparable {
        public var row: Int
        public var id: String

        public init(row: Int, id: String) {
            self.row = row
            self.id = id
        }

        public static func < (a: UserRef, b: UserRef) -> Bool { a.row < b.row }
    }

    public init(properties: Int) {
        failures = Array(repeating: 0, count: properties)
        failing = Array(repeating: [], count: properties)
        judgedRequests = failures
        lateRequests = failures
    }

    /// Adds `o` in, figure by figure (`ReplayFigure.all`): every count saturates (shards read
    /// back from files may hold anything).
    public mutating func merge(_ o: ReplayTally) { merge(o, countsOnly: false) }

    /// Adds `o`'s counts of requests and what became of them (every figure of a group but its
    /// users and failures): a level's or key's group from one of its popups'.
    mutating func mergeCounts(_ o: ReplayTally) { merge(o, countsOnly: true) }

    private mutating func merge(_ o: ReplayTally, countsOnly: Bool) {
        let add = WaitHistogram.add
        for figure in ReplayFigure.all where !countsOnly || figure.perGroup {
            switch figure.kind {
            case .count(let get, let set, let most):
                if countsOnly && figure.key == ReplayFigure.usersKey { continue }
                set(&self, most ? max(get(self), get(o)) : add(get(self), get(o)))
            case .shown: shown = add(shown, o.shown)
            case .drops: for i in drops.indices { drops[i] = add(drops[i], o.drops[i]) }
            case .waits: waits.merge(o.waits)
            case .waitDistance: continue
            case .failures:
                guard !countsOnly else { continue }
                for i in failures.indices {
                    failures[i] = add(failures[i], o.failures[i])
                    failing[i] = Self.first(failing[i] + o.failing[i])
                    judgedRequests[i] = add(judgedRequests[i], o.judgedRequests[i])
                    lateRequests[i] = add(lateRequests[i], o.lateRequests[i])
                }
            case .agreeing:
                agreeing = add(agreeing, o.agreeing)
                disagreeing = Self.first(disagreeing + o.disagreeing)
                timed = add(timed, o.timed)
                untimed = Self.first(untimed + o.untimed)
            case .unsettled:
                unsettled = add(unsettled, o.unsettled)
                unsettledUsers = Self.first(unsettledUsers + o.unsettledUsers)
            }
        }
    }

    static func first(_ users: [UserRef]) -> [UserRef] {
        Array(users.sorted().prefix(named))
    }

    mutating func note(_ user: UserRef, in list: inout [UserRef]) {
        guard list.count < Self.named || user < list[list.count - 1] else { return }
        list = Self.first(list + [user])
    }

    mutating func failed(_ property: Int, _ user: UserRef) {
        failures[property] += 1
        var list = failing[property]
        note(user, in: &list)
        failing[property] = list
    }

    /// Whether `user`, whose run is `run`, is still among the first named for a property the run
    /// fails (what `--save` writes as a failing scenario; every disagreement is saved apart).
    public func names(_ user: UserRef, for run: Replayer.Run) -> Bool {
        failing.enumerated().contains { i, list in run.failed[i] && list.contains(user) }
    }

    mutating func disagrees(_ user: UserRef) {
        var list = disagreeing
        note(user, in: &list)
        disagreeing = list
    }

    mutating func lateOrEarly(_ user: UserRef) {
        var list = untimed
        note(user, in: &list)
        untimed = list
    }

    mutating func didNotSettle(_ user: UserRef) {
        unsettled += 1
        var list = unsettledUsers
        note(user, in: &list)
        unsettledUsers = list
    }
}
