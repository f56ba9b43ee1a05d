import PopsimSystem

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
    /// Whether its bytes may be other than what this replay wrote (a pack): every record is then
    /// checked as it is read back, and bytes that do not read back are `unreadable`, not a bug.
    var isForeign: Bool { get }
    /// What reading back says of bytes that are not popsim's encoding.
    var unreadable: PopsimError { get }
}

extension SpillStore {
    public var isForeign: Bool { false }
    public var unreadable: PopsimError { .internalError("replay: a temporary partition does not read back") }
}

/// Where `--pack` writes the users a replay replayed, a block at a time (`TracePack`).
public protocol PackSink: AnyObject {
    /// Appends one block: a `PartitionCodec` stream of whole users.
    func append(_ block: [UInt8]) throws(PopsimError)
    /// Forgets every block: the trace is read again from its start.
    func startOver() throws(PopsimError)
}

/// One worker of a replay: its reader, its gatherer (its share of the users), and the replays of
/// its users added up. The command runs one per thread and shows every worker every chunk (or,
/// reading split, its own rows of it); the workers share nothing while they read, and their
/// tallies merge into the same bytes in any order (`ReplayTallies.merge`).
///
/// `@unchecked Sendable`, audited: a worker is used by one thread at a time — the command hands
/// each worker to one iteration of `concurrentPerform` and waits for them all before it looks at
/// any — so its mutable state (the gatherer, the tallies, the scratch) is never shared; workers
/// share nothing but `Sendable` values (the replayer, the plan, the `@Sendable` closures). The
/// one exception is the end (`help`): a helper reads `handout` only behind its lock, and `handed`
/// (the gatherer whose range is handed out) only after taking a batch under that lock, which the
/// owner opened after writing it; the owner writes it again only once the range is all taken and
/// no helper holds a batch. What a helper reads of that gatherer (its users, arranged rows and
/// values) nothing writes until then; it replays on its own tallies and scratch.
///
/// Contract: users are replayed in order of their first row within what is held or read back;
/// after a user's run fails (`failure`), only users whose first row is earlier are replayed, so
/// that the failure kept is the first by row whatever the number of workers. At the end
/// (`replayRest`) a worker hands its users out in batches, and a worker done with its own takes
/// some (`help`): then the tallies of a user may be another worker's, which `merge` makes alike.
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
    /// The first row of each user read from a pack's blocks (a foreign store): whoever reads all
    /// the workers' checks that no user is in two blocks (8 bytes a user).
    public private(set) var packedFirstRows: [Int] = []
    /// The rows those users hold.
    public private(set) var packedRows = 0
    /// The rows of a split reading's batch (`read(_:)`).
    private var indexed = IndexedRows()
    /// The rows of the user being replayed.
    private var userRows: [TimedEntry] = []
    /// A runner per column and the buffers, kept from user to user.
    private var scratch: ReplayScratch
    private var store: (any SpillStore)?
    /// At the end, the users of the range being replayed not yet taken, and helpers at work.
    private let handout = System.Locked(Handout())
    /// The gatherer whose range is handed out: set before the range opens, and changed only once
    /// it is all taken and no helper is at work on it (so a helper that took a batch reads it
    /// after the owner wrote it: the lock orders the two).
    private var handed: UserGatherer?
    private let makeStore: @Sendable (Int) throws(PopsimError) -> any SpillStore
    /// With `--pack`: where each user replayed goes too, in the order replayed (one worker, so
    /// the pack's bytes are the same every run), and the block being filled.
    private var pack: (any PackSink)?
    private var packBlock = PackBlockWriter()
    /// Users written to the pack, and the first failure to write it.
    public private(set) var packedUsers = 0
    public private(set) var packFailure: PopsimError?

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
        indexed.start(batch, worker: gatherer.worker)
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

    /// Replays the users held that another user's row ended (the trace so far grouped by user),
    /// in order, and lets them go; the rest are replayed at the end (`replayRest`).
    public func replayHeld() {
        for i in 0..<gatherer.heldUsers { replayUser(i, of: gatherer, onlyFinished: true) }
        gatherer.releaseFinished()
        prune()
    }

    /// Replays user `i` of `g` (on this worker's tallies, whoever's user it is), unless it is left
    /// out, a user before it failed, or (`onlyFinished`) its rows may go on.
    private func replayUser(_ i: Int, of g: UserGatherer, onlyFinished: Bool = false) {
        let u = g.user(i)
        guard !u.bad, failureRow > u.firstRow, u.finished || !onlyFinished else { return }
        g.rows(of: i, into: &userRows)
        replay(rows: userRows, id: u.id, firstRow: u.firstRow, values: g.values)
    }

    private func replay(rows: [TimedEntry], id: String, firstRow: Int, values: TraceValues) {
        if failureRow <= firstRow { return }
        if pack != nil { packUser(rows: rows, id: id, firstRow: firstRow, values: values) }
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

    // MARK: Packing

    /// Writes every user it replays from now on into `sink` too (`TracePack`).
    public func packing(into sink: any PackSink) {
        pack = sink
        packBlock.reset()
    }

    private func packUser(rows: [TimedEntry], id: String, firstRow: Int, values: TraceValues) {
        var id = id
        id.withUTF8 { packBlock.add(user: $0, firstRow: firstRow, rows: rows, values: values) }
        packedUsers += 1
        if packBlock.bytes.count >= TracePack.blockBytes { writePackBlock() }
    }

    /// The block being filled, written out (and a new one begun), unless it holds no user.
    private func writePackBlock() {
        guard let pack, packFailure == nil, !packBlock.isEmpty else { return }
        do throws(PopsimError) { try pack.append(packBlock.bytes) } catch { packFailure = error }
        packBlock.reset()
    }

    /// Blocks the pack holds to be read back and replayed at the end (`replayRest`), as if they
    /// were this worker's partitions: what a replay of a pack does instead of reading a trace.
    public func readBack(_ blocks: any SpillStore) {
        store = blocks
    }

    // MARK: The end, shared

    /// What is handed out: users `next..<end` of the range, batches helpers took and are at work
    /// on, whether the owner is at work (a helper waits only for an owner that runs: with more
    /// workers than threads, one not started yet may be waiting for the helper's thread), and
    /// whether it has no more ranges.
    private struct Handout {
        var next = 0
        var end = 0
        var busy = 0
        var started = false
        var done = false
    }

    /// Users a worker takes from a range at once: a batch is about a tenth of a millisecond of
    /// work, so the lock is taken rarely, and no worker is left waiting on another for longer.
    static let batch = 8

    /// Whether `replayRest` has begun.
    public var startedRest: Bool { handout.withLock { $0.started } }

    /// Everything this worker holds, replayed (or its partitions read back and replayed), its
    /// users handed out to helpers as it goes; after it, `help` the others.
    public func replayRest(maxErrors: Int, othersErrors: Int) throws(PopsimError) {
        handout.withLock { $0.started = true }
        defer { handout.withLock { $0.done = true } }
        if isSpilling {
            try replaySpilled(maxErrors: maxErrors, othersErrors: othersErrors)
        } else {
            replayHandingOut(gatherer)
            prune()
        }
        writePackBlock()
    }

    /// Replays every user of `g`, a range at a time (the users `ArrangedRows` arranges at once),
    /// each range handed out in batches that helpers take too.
    private func replayHandingOut(_ g: UserGatherer) {
        var i = 0
        while i < g.heldUsers {
            let end = g.arrangeRange(from: i)
            handed = g
            handout.withLock { h in
                h.next = i
                h.end = end
            }
            while case .users(let batch) = take(helping: false) {
                for k in batch { replayUser(k, of: g) }
            }
            // The range's rows are arranged again only once no helper reads them.
            while handout.withLock({ $0.busy }) > 0 { System.yield() }
            i = end
        }
        handed = nil
    }

    private enum Taken {
        case users(Range<Int>)
        /// None now: the owner is arranging its next range.
        case wait
        case done
    }

    private func take(helping: Bool) -> Taken {
        handout.withLock { h in
            if h.next < h.end {
                let batch = h.next..<min(h.end, h.next + Self.batch)
                h.next = batch.upperBound
                if helping { h.busy += 1 }
                return .users(batch)
            }
            return h.done || !h.started || !helping ? .done : .wait
        }
    }

    /// Once this worker's own users are replayed: replays users `other` hands out, on this
    /// worker's tallies, until it has none left. The slowest worker no longer sets the end
    /// (on 2 cores one worker finished 150 ms before the other, of 750).
    public func help(_ other: ReplayWorker) {
        guard other !== self else { return }
        while true {
            switch other.take(helping: true) {
            case .users(let batch):
                if let g = other.handed {
                    for k in batch { replayUser(k, of: g) }
                }
                other.handout.withLock { $0.busy -= 1 }
            case .wait:
                System.yield()
            case .done:
                return prune()
            }
        }
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
    private func replaySpilled(maxErrors: Int, othersErrors: Int) throws(PopsimError) {
        guard let store else { return }
        try flush(force: true)
        try replay(store, level: 1, parentSize: nil, maxErrors: maxErrors, othersErrors: othersErrors)
    }

    /// A foreign store's records (a pack's blocks, never split) are checked against the catalog
    /// as they are read.
    private func replay(_ store: any SpillStore, level: Int, parentSize: Int?, maxErrors: Int, othersErrors: Int) throws(PopsimError) {
        let state = replayer.catalog.state.initial
        let popups = store.isForeign ? replayer.catalog.popups.count : nil
        for part in 0..<store.count {
            let size = store.size(part)
            guard size > PartitionCodec.header.count else { continue }
            // Split again, unless the last split put everything in this one part (one user, or
            // users too alike): then it is read whole. A pack's block is never split (its values
            // are numbers into its own table): it holds about a mebibyte, or one user.
            if popups == nil, plan.splits(size, level: level), size != parentSize {
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
                guard ok, codec.isAtEnd else { throw store.unreadable }
                try splitter.flush { (p, b) throws(PopsimError) in try sub.append(p, b) }
                try replay(sub, level: level + 1, parentSize: size, maxErrors: maxErrors, othersErrors: othersErrors)
                continue
            }
            var g = UserGatherer(decoder: gatherer.decoder, worker: 0, workers: 1, shard: nil, promisedGrouped: false, maxErrors: gatherer.maxErrors,
                                 arrangeBytes: plan.arrangeBytes)
            var codec = PartitionCodec.Reader(state: state, popups: popups)
            var ok = true
            let leftOut = gatherer.badUsers
            var values = TraceValues()
            var runs = 0, rowsBefore = 0, forged = false
            try store.read(part) { piece in
                guard ok, !forged else { return }
                ok = codec.feed(piece, values: &values) { record in
                    // A pack's block closes once it passes `TracePack.blockBytes`, and a row takes
                    // two bytes at least: a user that begins after more rows than that holds is
                    // no block popsim wrote (a forged block of a million users was gathered
                    // whole, past the budget). Refused before it is held.
                    if popups != nil, runs > 0, rowsBefore > TracePack.blockBytes / 2 { forged = true }
                    guard !forged else { return }
                    runs += 1
                    if case .run(_, let firstRow, _, let rows) = record {
                        rowsBefore &+= rows.count
                        packedRows &+= rows.count
                        packedFirstRows.append(firstRow)
                    }
                    g.take(record, leftOut: leftOut)
                }
            }
            g.values = values
            // A foreign store holds one run per user (a user twice would have its rows out of order).
            guard ok, !forged, codec.isAtEnd, popups == nil || g.heldUsers == runs else { throw store.unreadable }
            laterErrors = TraceError.inFileOrder(laterErrors + g.errors, cap: gatherer.maxErrors + 1)
            laterErrorCount += g.errorCount
            laterUserErrors += g.userErrors
            laterSkipped += g.skippedUsers
            // Read whole past what the plan holds: one user's rows, or users too alike to split.
            if size * SpillPlan.expansion > plan.holdLimit { oversized.append((size, g.heldUsers == 1 ? g.user(0).id : nil)) }
            guard errorCount + othersErrors <= maxErrors else { continue }
            replayHandingOut(g)
            prune()
        }
    }
}
