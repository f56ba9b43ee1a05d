/// Temporary partitions of a worker's users, kept where the caller chooses (the CLI: files in
/// `TMPDIR`, removed as they are made): the core only appends bytes and reads them back.
public protocol SpillStore: AnyObject {
    /// How many partitions it has.
    var count: Int { get }
    /// Appends `bytes` to partition `part`.
    func append(_ part: Int, _ bytes: [UInt8]) throws(PopsimError)
    /// The bytes partition `part` holds.
    func size(_ part: Int) -> Int
    /// Hands partition `part` to `body` in pieces, in order.
    func read(_ part: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(PopsimError)
    /// Gives its storage back.
    func close()
}

/// One worker of a replay: its reader, its gatherer (its share of the users), and the replays of
/// its users added up. The command runs one per thread and shows every worker every chunk; the
/// workers share nothing while they work, and their tallies merge into the same bytes in any
/// order (`ReplayTallies.merge`).
///
/// `@unchecked Sendable`, audited: a worker is used by one thread at a time — the command hands
/// each worker to one iteration of `concurrentPerform` and waits for them all before it looks at
/// any — so its mutable state (the gatherer, the tallies, the scratch) is never shared; workers
/// share nothing but `Sendable` values (the replayer, the plan, the `@Sendable` closures).
///
/// Contract: users are replayed in order of their first row within what is held or read back;
/// after a user's run fails (`failure`), only users whose first row is earlier are replayed, so
/// that the failure kept is the first by row whatever the number of workers.
public final class ReplayWorker: @unchecked Sendable {
    public private(set) var reader: any TraceRowReader
    public var gatherer: UserGatherer
    public let replayer: Replayer
    public let plan: SpillPlan
    /// Keep failing users' scenarios for `--save`.
    let saving: Bool
    /// With `--save`: handed every run that disagrees with production, as it comes (on this
    /// worker's thread): all of them are saved, not only the first named, so they are not held.
    let disagreement: (@Sendable (_ column: Int, _ user: ReplayTally.UserRef, _ run: Replayer.Run) -> Void)?
    public private(set) var tallies: ReplayTallies
    /// Users of failing runs kept for `--save`: (column, user, run).
    public private(set) var kept: [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)] = []
    /// The first run (by user row, then column) that stopped: a plug-in's failure or a bug.
    public private(set) var failure: (column: Int, failure: ReplayFailure)? {
        didSet { failureRow = failure?.failure.user.row ?? .max }
    }
    /// The first row of the failure's user (`Int.max`: none), read before every user.
    private var failureRow = Int.max
    /// The rows of the users it replayed.
    public private(set) var replayedRows = 0
    /// Errors and counts found reading partitions back.
    public private(set) var laterErrors: [TraceError] = []
    public private(set) var laterErrorCount = 0
    public private(set) var laterUserErrors = 0
    public private(set) var laterSkipped = 0
    /// Partitions read back whole though bigger than the plan reads (one user's rows, or users
    /// too alike to split): their bytes and, when it was one user, who.
    public private(set) var oversized: [(bytes: Int, user: String?)] = []
    /// The rows of a split reading's batch (`read(_:)`).
    private var indexed = IndexedRows()
    /// The rows of the user being replayed.
    private var userRows: [TimedEntry] = []
    /// A runner per column and the buffers, kept from user to user.
    private var scratch: ReplayScratch
    private var store: (any SpillStore)?
    private let makeStore: @Sendable (Int) throws(PopsimError) -> any SpillStore

    public init(reader: any TraceRowReader, gatherer: UserGatherer, replayer: Replayer, plan: SpillPlan, saving: Bool,
                disagreement: (@Sendable (Int, ReplayTally.UserRef, Replayer.Run) -> Void)? = nil,
                makeStore: @escaping @Sendable (Int) throws(PopsimError) -> any SpillStore) {
        self.reader = reader
        self.gatherer = gatherer
        self.replayer = replayer
        self.plan = plan
        self.saving = saving
        self.disagreement = disagreement
        self.makeStore = makeStore
        scratch = ReplayScratch(for: replayer)
        tallies = replayer.emptyTallies()
    }

    deinit { store?.close() }

    // MARK: Reading

    /// Reads every row the chunk completes (the chunk must stay valid until this returns).
    public func read(_ chunk: UnsafeBufferPointer<UInt8>) {
        reader.feed(chunk)
        gatherer.read(&reader)
    }

    /// Reads a batch of rows a split reading indexed (`SplitReading`): its own reader is not used.
    public func read(_ batch: [IndexedRows.Part]) {
        indexed.start(batch)
        gatherer.read(&indexed)
    }

    /// Reads what is left at the end of the trace.
    public func finishReading() {
        reader.finish()
        gatherer.read(&reader)
    }

    /// Rows the reader has handed out.
    public var rowCount: Int { reader.rowCount }

    /// Bad rows found in all, reading and reading back.
    public var errorCount: Int { gatherer.errorCount + laterErrorCount }

    // MARK: Replaying what is held

    /// Replays the users held that are done — `all`, or those another user's row ended (the
    /// trace so far grouped by user) — and lets them go.
    public func replayHeld(all: Bool) {
        replayUsers(of: gatherer) { all || $0.finished }
        if !all { gatherer.releaseFinished() }
        prune()
    }

    /// Replays the users of `g` that `take` takes (the left-out ones never), in order.
    private func replayUsers(of g: UserGatherer, _ take: ((id: String, firstRow: Int, bad: Bool, finished: Bool)) -> Bool) {
        for i in 0..<g.heldUsers {
            let u = g.user(i)
            guard take(u), !u.bad, failureRow > u.firstRow else { continue }
            g.rows(of: i, into: &userRows)
            replay(rows: userRows, id: u.id, firstRow: u.firstRow, values: g.values)
        }
    }

    private func replay(rows: [TimedEntry], id: String, firstRow: Int, values: TraceValues) {
        if failureRow <= firstRow { return }
        replayedRows += rows.count
        let user = Replayer.User(id: id, firstRow: firstRow, rows: rows, values: values)
        let saving = self.saving
        do throws(ReplayFailure) {
            // Only a user still among the first named is kept (a run is a scenario: memory);
            // the list is pruned again when it grows.
            for (c, run) in try replayer.replay(user, into: &tallies, scratch: &scratch, keep: { _, _ in saving }) {
                if run.production != nil { disagreement?(c, user.ref, run) }
                if tallies.columns[c].names(user.ref, for: run) { kept.append((c, user.ref, run)) }
            }
            if kept.count > 64 * max(1, replayer.columns.count) { prune() }
        } catch {
            let c = replayer.columns.firstIndex { $0.label == error.column } ?? 0
            if let f = failure, (f.failure.user.row, f.column) < (error.user.row, c) { return }
            failure = (c, error)
        }
    }

    /// Keeps only the users still among the first named for a property they fail.
    private func prune() {
        kept.removeAll { !tallies.columns[$0.column].names($0.user, for: $0.run) }
    }

    // MARK: Spilling

    /// Sends every user held, and from now on every row of its users, to temporary partitions.
    public func beginSpilling() throws(PopsimError) {
        guard store == nil else { return }
        store = try makeStore(1 << plan.partitionBits)
        gatherer.beginSpilling(bits: plan.partitionBits)
        try flush(force: false)
    }

    public var isSpilling: Bool { store != nil }

    /// Writes the outboxes out when they hold more than the plan keeps (`force`: whatever they hold).
    public func flush(force: Bool) throws(PopsimError) {
        guard let store, force || gatherer.outboxBytes > plan.flushBytes else { return }
        try gatherer.flush { (part, bytes) throws(PopsimError) in try store.append(part, bytes) }
    }

    /// At the end: every partition read back and its users replayed (a partition bigger than the
    /// plan reads is split again first). Every partition is read, so that every bad row is found;
    /// users are replayed only while no more than `maxErrors` are.
    public func replaySpilled(maxErrors: Int, othersErrors: Int) throws(PopsimError) {
        guard let store else { return }
        try flush(force: true)
        try replay(store, level: 1, parentSize: nil, maxErrors: maxErrors, othersErrors: othersErrors)
    }

    private func replay(_ store: any SpillStore, level: Int, parentSize: Int?, maxErrors: Int, othersErrors: Int) throws(PopsimError) {
        let state = replayer.catalog.state.initial
        for part in 0..<store.count {
            let size = store.size(part)
            guard size > PartitionCodec.header.count else { continue }
            // Split again, unless the last split put everything in this one part (one user, or
            // users too alike): then it is read whole.
            if plan.splits(size, level: level), size != parentSize {
                let sub = try makeStore(1 << plan.partitionBits)
                defer { sub.close() }
                var splitter = UserGatherer(decoder: gatherer.decoder, worker: 0, workers: 1, shard: nil, promisedGrouped: false,
                                            maxErrors: gatherer.maxErrors)
                splitter.beginSpilling(bits: plan.partitionBits, skip: level * plan.partitionBits)
                var codec = PartitionCodec.Reader(state: state)
                var ok = true
                var failed: PopsimError?
                try store.read(part) { piece in
                    guard ok, failed == nil else { return }
                    ok = codec.feedRaw(piece) { user, record in splitter.split(user: user, record: record) }
                    if splitter.outboxBytes > plan.flushBytes {
                        do throws(PopsimError) { try splitter.flush { (p, b) throws(PopsimError) in try sub.append(p, b) } } catch { failed = error }
                    }
                }
                if let failed { throw failed }
                guard ok, codec.isAtEnd else { throw PopsimError.internalError("replay: a temporary partition does not read back") }
                try splitter.flush { (p, b) throws(PopsimError) in try sub.append(p, b) }
                try replay(sub, level: level + 1, parentSize: size, maxErrors: maxErrors, othersErrors: othersErrors)
                continue
            }
            var g = UserGatherer(decoder: gatherer.decoder, worker: 0, workers: 1, shard: nil, promisedGrouped: false, maxErrors: gatherer.maxErrors,
                                 arrangeBytes: plan.arrangeBytes)
            var codec = PartitionCodec.Reader(state: state)
            var ok = true
            let leftOut = gatherer.badUsers
            var values = TraceValues()
            try store.read(part) { piece in
                guard ok else { return }
                ok = codec.feed(piece, values: &values) { g.take($0, leftOut: leftOut) }
            }
            g.values = values
            guard ok, codec.isAtEnd else { throw PopsimError.internalError("replay: a temporary partition does not read back") }
            laterErrors = TraceError.inFileOrder(laterErrors + g.errors, cap: gatherer.maxErrors + 1)
            laterErrorCount += g.errorCount
            laterUserErrors += g.userErrors
            laterSkipped += g.skippedUsers
            // Read whole past what the plan holds: one user's rows, or users too alike to split.
            if size * SpillPlan.expansion > plan.holdLimit { oversized.append((size, g.heldUsers == 1 ? g.user(0).id : nil)) }
            guard errorCount + othersErrors <= maxErrors else { continue }
            replayUsers(of: g) { _ in true }
            prune()
        }
    }
}
