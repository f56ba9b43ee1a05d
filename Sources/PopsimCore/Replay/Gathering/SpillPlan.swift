/// How a replay spends its memory budget (`--memory`), decided before the first row: a pure
/// function of the budget, the workers and the catalog, so that it can be tested like explore's
/// `Plan`. The gatherers and the command follow it; nothing else decides when rows leave memory.
///
/// The budget covers the whole process: what popsim needs to run at all (`baseline`), the
/// catalog and the runs in flight (`perWorker` each), the trace's read buffer, then the users
/// the workers hold — each worker `holdLimit` bytes, after which its users go to temporary
/// partitions (or, when the rows so far come grouped by user, are replayed as each is done).
/// A partition is read back whole when it holds at most `readBackLimit` bytes, else split again
/// by the next digits of its users' hashes (`partitionBits` at a time, `maxLevels` deep); one
/// user's rows are never split, so a single user too big for the budget is the one thing that
/// may pass it (with a warning).
public struct SpillPlan: Sendable, Equatable {
    public let budget: Int
    public let workers: Int
    /// Bytes a worker's gatherer may hold before it spills or streams.
    public let holdLimit: Int
    /// Bytes a worker may add to what it holds to hand a range of users' rows out in one piece
    /// (`ArrangedRows`): taken from its share before `holdLimit`.
    public let arrangeBytes: Int
    /// Partitions per level: `1 << partitionBits`.
    public let partitionBits: Int
    /// Outbox bytes a spilling worker gathers before writing them.
    public let flushBytes: Int
    /// The encoded bytes of a partition read back whole.
    public let readBackLimit: Int
    public let maxLevels: Int
    /// What popsim needs before holding a single row: the baseline, the catalog, the runs in
    /// flight, the read buffer.
    public let needed: Int
    public var isBelowMinimum: Bool { budget < needed }

    /// The process without a trace: the runtime, the code, the stacks, the allocator's slack.
    public static let baseline = 24 << 20
    /// What one worker's run of one ordinary user needs (the engine, the timeline, a scenario).
    public static let perWorker = 2 << 20
    /// The chunk a trace is read in.
    public static let chunk = 1 << 20
    /// Encoded partition bytes to the memory they take once read back (about).
    public static let expansion = 3
    /// What a gatherer made without a plan may arrange at once (`arrangeBytes`).
    public static let defaultArrangeBytes = 8 << 20
    /// The default budget: 256 MiB.
    public static let defaultBudget = 256 << 20

    /// The least `readBackLimit`: a part this small is read back whole whatever the budget.
    public static let readBackFloor = 1 << 20

    /// `readBackFloor`: tests lower it to reach the split-again path with small traces.
    public init(budget: Int, workers: Int, catalogBytes: Int, readBackFloor: Int = SpillPlan.readBackFloor) {
        self.budget = max(0, budget)
        self.workers = max(1, workers)
        // The catalog is parsed once and copied by each worker's run in flight.
        let catalog = catalogBytes.multipliedReportingOverflow(by: 8 + 4 * self.workers)
        // More than one worker: the indexes of a chunk's reading split among them (`SplitReading`).
        let fixed = [Self.baseline, catalog.overflow ? Int.max : catalog.partialValue, 3 * Self.chunk,
                     self.workers * Self.perWorker, self.workers > 1 ? SplitReading.indexBytes : 0].reduce(0) { $0.plus($1) }
        needed = fixed
        let free = max(0, self.budget - fixed)
        // Three quarters: a chunk's rows come in between two looks, and the allocator keeps some.
        let share = free / self.workers / 4 * 3
        // A ninth of it for arranging rows by user: whatever the budget, what a worker holds is
        // arranged in at most about nine passes over it (a fixed cap would make it hundreds
        // under a large budget).
        arrangeBytes = max(64 << 10, share / 9)
        holdLimit = max(0, share - arrangeBytes)
        var bits = 6
        while bits > 2, (self.workers << bits) > 256 { bits -= 1 }
        partitionBits = bits
        flushBytes = max(64 << 10, min(8 << 20, holdLimit / 4))
        // At least a mebibyte: a part that small is read back whole whatever the budget (a tiny
        // budget split a 2 MB trace three levels deep, 262,144 temporary files; issue 41).
        readBackLimit = max(readBackFloor, holdLimit / Self.expansion)
        maxLevels = 4
    }

    /// Whether a worker holding `bytes` must let rows go.
    public func mustRelease(_ bytes: Int) -> Bool { bytes > holdLimit }

    /// Whether a partition of `bytes` encoded bytes, at `level` (1: the first), is split again
    /// rather than read back whole.
    public func splits(_ bytes: Int, level: Int) -> Bool { bytes > readBackLimit && level < maxLevels }
}
