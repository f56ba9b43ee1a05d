/// Gathers a trace's rows into users, for one part of the work (a worker's share of the users,
/// within a shard): the one type that knows users.
///
/// Every worker's gatherer is shown every row (`take`), in trace order — or, through a split
/// reading, only its own rows, each flagged when another worker's user's row came before it
/// (`read(_: inout IndexedRows)`); it decodes the rows whose user is its own (by the middle
/// digits of the user's hash; rows without a user are worker 0's),
/// reports each bad one (located) and leaves its user out, and keeps the rows of its users that are
/// in the shard — in memory (`HeldRow`, 24 bytes a row, in the order they came; `ArrangedRows`
/// hands them out by user), or, once told to spill, encoded into the outbox of the user's
/// partition (by the high digits of the hash). It also follows whether the
/// shard's rows come grouped by user (another user's row ends a user's rows), for all workers alike.
///
/// Contract: users are numbered in the order of their first row; a row earlier than its user's
/// last is an error (found here, or when a partition is read back); what it holds is `heldBytes`.
public struct UserGatherer {
    public let decoder: TraceRowDecoder
    /// This gatherer's share: workers `of` in all, this one `worker`.
    public let worker: Int
    public let workers: Int
    public let shard: Shard?
    /// Rows said to be grouped by user (`--grouped`): a user's row after another user's is an error.
    public let promisedGrouped: Bool
    /// Bad rows allowed in all (`--max-errors`): this gatherer keeps its first `maxErrors + 1`.
    public let maxErrors: Int

    let users = UserTable()
    let held = Paged<HeldRow>()
    /// The held rows arranged by user, a range of users at a time, for handing them out.
    let arranged: ArrangedRows
    public internal(set) var values = TraceValues()

    /// Bad rows found, the first `maxErrors + 1` by line, and how many in all.
    public internal(set) var errors: [TraceError] = []
    public internal(set) var errorCount = 0
    /// Of those, errors about a user's rows together (found only by the user's shard).
    public internal(set) var userErrors = 0
    public internal(set) var skippedUsers = 0
    /// Its rows of the shard (bad ones included): with the rows replayed, what was left out.
    public private(set) var shardRows = 0
    /// Whether one of its rows (any shard's) is a `shown`: then production is a column.
    public private(set) var sawShown = false
    /// Whether a problem stops the reading whatever `--max-errors` allows (a record that never
    /// ends).
    public private(set) var stopsReading = false
    /// Whether one of its rows (any shard's) is a `trigger`.
    public private(set) var sawTrigger = false
    /// Rows skipped for an event name the mapping does not name, by that name (any shard's:
    /// what the trace holds, like its bad rows), bounded.
    public private(set) var unmapped = UnmappedEvents()
    /// Rows read per setting (by its id in `values`) and per mapped event (by its index in the
    /// mapping): what `TraceWarning` checks the catalog's conditions and the mapping against.
    /// Every row is decoded by one worker only, whatever the shard, so workers' counts add up.
    public internal(set) var settingRows: [Int] = []
    public internal(set) var mappedRows: [Int] = []
    /// Whether no user of its own came back after another user's row (the trace so far is grouped).
    public private(set) var groupedSoFar = true

    /// The hash of the user of the shard's last row with a user, and that user's index here if
    /// it is this gatherer's.
    private var lastHash: UInt64?
    var lastIndex: Int?
    /// Users handed out and let go (streaming): their hashes, to tell one that comes back.
    var finished = HashSet()
    /// Users handed out in all (for the progress line).
    public private(set) var handedOut = 0

    /// Spilling: an outbox per partition, filled with encoded rows; users left out by hash.
    public internal(set) var outboxes: [[UInt8]]?
    var partitionShift: UInt64 = 58
    var partitionMask: UInt64 = 63
    public internal(set) var badUsers = Set<UInt64>()

    /// `arrangeBytes`: the most memory that handing a range of users' rows out in one piece may add
    /// (`SpillPlan.arrangeBytes`).
    public init(decoder: TraceRowDecoder, worker: Int, workers: Int, shard: Shard?, promisedGrouped: Bool, maxErrors: Int,
                arrangeBytes: Int = SpillPlan.defaultArrangeBytes) {
        self.decoder = decoder
        arranged = ArrangedRows(limit: arrangeBytes)
        self.worker = worker
        self.workers = max(1, workers)
        self.shard = shard
        self.promisedGrouped = promisedGrouped
        self.maxErrors = maxErrors
    }

    /// Users held now, and handed out before.
    public var userCount: Int { users.count + handedOut }

    /// Memory held: rows, users, values, the outboxes and the set of users let go.
    public var heldBytes: Int {
        held.byteCount + arranged.byteCount + users.byteCount + values.byteCount + finished.byteCount + (outboxes?.reduce(0) { $0 + $1.capacity } ?? 0)
    }

    /// Which worker's a user is: the middle digits of its hash (shards take the low ones,
    /// partitions the high ones).
    public static func worker(of hash: UInt64, among workers: Int) -> Int {
        // Mixed (FNV's middle bits of short ids are uneven: 8 workers got 624 to 1,020 users of
        // 6,400, and one of 64 none), then scaled to the workers: a multiply, not a division.
        let mixed = (hash >> 24) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: ((mixed >> 32) &* UInt64(max(1, workers))) >> 32)
    }

    // MARK: Taking rows

    /// A problem of the reader's (a record that cannot be split): worker 0 reports it.
    public mutating func take(_ problem: TraceError) {
        guard worker == 0 else { return }
        report(problem)
    }

    /// Every row and problem the reader has, in order: another worker's user's row is read no
    /// further than its user.
    public mutating func read<R: TraceRowReader>(_ r: inout R) {
        while let pulled = r.next() {
            switch pulled {
            case .row(let row):
                if claim(row) {
                    r.completeRow()
                    takeClaimed(row)
                }
            case .problem(let e): take(e)
            }
        }
    }

    /// One row of the trace, whole (every worker is shown every row).
    public mutating func take(_ row: TraceRow) {
        if claim(row) { takeClaimed(row) }
    }

    /// Where `takeClaimed` has the decoder put a row's problem: nil between rows, so that a good
    /// row leaves nothing to destroy (a local optional error cost ~60 instructions a row).
    private var decodeFailure: TraceError?

    /// What `claim` read of the row it claimed, for `takeClaimed`.
    private var claimed: (hash: UInt64?, inShard: Bool, endsLast: Bool) = (nil, true, false)

    /// Follows the order of the shard's users with one row (only its `user` is read) and says
    /// whether the row is this gatherer's: then `takeClaimed` takes it, whole.
    public mutating func claim(_ row: TraceRow) -> Bool {
        claim(hash: row.userHash ?? row[.user].map(UserTable.hash))
    }

    /// The same, by the hash of the row's user (nil: it has none).
    @inline(__always)
    mutating func claim(hash: UInt64?) -> Bool {
        let inShard = hash.map { shard?.contains(hash: $0) ?? true } ?? true
        let mine = hash.map { Self.worker(of: $0, among: workers) == worker } ?? (worker == 0)
        // The order of the shard's users: another user's row ends a user's rows.
        var endsLast = false
        if let hash, inShard, hash != lastHash {
            if let i = lastIndex { markFinished(i) }
            endsLast = true
            lastHash = hash
            lastIndex = nil
        }
        claimed = (hash, inShard, endsLast)
        return mine
    }

    /// This gatherer's rows of a split reading's batch (`IndexedRows.start(_:worker:)`): another
    /// worker's users' rows are not even read, only what they tell of the order of users.
    public mutating func read(_ r: inout IndexedRows) {
        while let step = r.step() {
            switch step {
            case .row(let hash, let foreignBefore):
                let (far, near) = r.upcoming()
                users.prefetchSlot(far)
                users.prefetchEntry(near)
                if foreignBefore { anotherWorkersUserCame() }
                if claim(hash: hash) {
                    r.completeRow()
                    takeClaimed(r.current())
                }
            case .problem(let e): take(e)
            }
        }
        if r.foreignAfter { anotherWorkersUserCame() }
    }

    /// A row of the shard whose user is another worker's came: as in `claim`, it ends the rows of
    /// the user of the shard's last row, if that was this gatherer's. (Its hash is never one of
    /// this gatherer's users', so forgetting the last hash is as good as knowing it.)
    private mutating func anotherWorkersUserCame() {
        if let i = lastIndex { markFinished(i) }
        lastHash = nil
        lastIndex = nil
    }

    /// The row `claim` claimed, its fields complete: decoded, reported if bad, kept if its user
    /// is in the shard.
    public mutating func takeClaimed(_ row: TraceRow) {
        let (hash, inShard, endsLast) = claimed
        if inShard { shardRows += 1 }
        guard let d = decoder.decode(row, values: &values, failure: &decodeFailure) else {
            let failure = decodeFailure
            decodeFailure = nil
            let userBytes = row[.user]
            if case .unmappedEvent(let name)? = failure?.problem {
                unmapped.add(name)
                if inShard { shardRows -= 1 }
                return
            }
            if let failure { report(failure) }
            guard let userBytes, let hash, inShard else { return }
            if outboxes != nil {
                if badUsers.insert(hash).inserted { skippedUsers += 1 }
                return
            }
            if let i = users.find(userBytes, hash: hash) {
                markBad(i)
                if endsLast { lastIndex = i }
                return
            }
            // A user handed out already was replayed: no second entry for it.
            if finished.contains(hash) { return }
            let i = users.insert(userBytes, hash: hash, firstRow: row.row, time: .min)
            markBad(i)
            lastIndex = i
            return
        }
        if !sawShown, d.entry.op == Self.shownOp { sawShown = true }
        if d.entry.op == Self.setOp { countSetting(d.entry.value) }
        if d.event >= 0 { countEvent(d.event) }
        if !sawTrigger, d.entry.op == Self.triggerOp { sawTrigger = true }
        guard inShard else { return }
        add(d, row: row, hash: hash ?? 0)
    }

    static let shownOp = TraceVerb.shown.ordinal
    static let setOp = TraceVerb.action(.set).ordinal

    static let triggerOp = TraceVerb.action(.trigger).ordinal

    private mutating func add(_ d: TraceRowDecoder.Decoded, row: TraceRow, hash: UInt64) {
        if var boxes = outboxes {
            outboxes = nil
            PartitionCodec.encodeRow(user: d.user, row: row.row, location: row.location(.time), time: d.time, entry: d.entry,
                                     values: values, into: &boxes[partition(hash)])
            outboxes = boxes
            return
        }
        guard let i = users.find(d.user, hash: hash) else {
            if finished.contains(hash) { return comesBack(d.user, row) }
            let i = users.insert(d.user, hash: hash, firstRow: row.row, time: d.time)
            append(i, TimedEntry(time: d.time, entry: d.entry))
            lastIndex = i
            return
        }
        lastIndex = i
        let u = users.entry(i)
        if u.pointee.finished {
            groupedSoFar = false
            if promisedGrouped {
                markBad(i)
                return comesBack(d.user, row)
            }
        }
        if d.time < u.pointee.lastTime {
            userErrors += 1
            report(TraceError(file: decoder.file, location: row.location(.time),
                              problem: .timeGoesBack(user: String(decoding: d.user, as: UTF8.self), time: d.time, unit: decoder.layout.timeUnit)))
            markBad(i)
            return
        }
        append(i, TimedEntry(time: d.time, entry: d.entry))
    }

    @inline(__always)
    func append(_ i: Int, _ d: TimedEntry) {
        held.append(HeldRow(time: d.time, entry: d.entry, user: UInt32(truncatingIfNeeded: i)))
        let u = users.entry(i)
        u.pointee.rows += 1
        u.pointee.lastTime = d.time
    }

    private mutating func comesBack(_ user: UnsafeBufferPointer<UInt8>, _ row: TraceRow) {
        groupedSoFar = false
        guard promisedGrouped else { return }
        userErrors += 1
        report(TraceError(file: decoder.file, location: row.location(.user), problem: .comesBack(user: String(decoding: user, as: UTF8.self))))
    }

    private func markFinished(_ i: Int) {
        users.entry(i).pointee.finished = true
    }

    mutating func markBad(_ i: Int) {
        let u = users.entry(i)
        guard !u.pointee.bad else { return }
        u.pointee.bad = true
        skippedUsers += 1
    }

    mutating func report(_ e: TraceError) {
        if case .recordTooLong = e.problem { stopsReading = true }
        errorCount += 1
        errors.append(e)
        // Keep the first maxErrors + 1 by line: what one reader going through the file reports.
        if errors.count > 2 * (maxErrors + 1) + 64 { errors = TraceError.inFileOrder(errors, cap: maxErrors + 1) }
    }

    /// Its errors in file order, at most `maxErrors + 1`.
    public var errorsInOrder: [TraceError] { TraceError.inFileOrder(errors, cap: maxErrors + 1) }

    func partition(_ hash: UInt64) -> Int { Int((hash >> partitionShift) & partitionMask) }

    // MARK: Users out

    /// A user's rows, in order, into `rows` (emptied first): handed out from `arranged`, which
    /// arranges the users from `i` on when `i` is not among those it holds.
    public func rows(of i: Int, into rows: inout [TimedEntry]) {
        rows.removeAll(keepingCapacity: true)
        rows.append(contentsOf: arranged.rows(of: i, users: users, held: held))
    }

    /// Arranges the users from `i` on that are handed out in one piece, and returns the index
    /// after the last: `rows(of:)` of those then only reads, from any thread, until the next
    /// range is arranged.
    public func arrangeRange(from i: Int) -> Int { arranged.arrangeRange(from: i, users: users, held: held) }

    /// The users held, by index (first-row order): each one's index, id, first row and whether
    /// it is done (`finished`, or every one at the end) and left out.
    public var heldUsers: Int { users.count }

    public func user(_ i: Int) -> (id: String, firstRow: Int, bad: Bool, finished: Bool) {
        let u = users[i]
        return (users.idString(i), u.firstRow, u.bad, u.finished)
    }

    /// Lets go of every finished user (with streaming: all but the one whose rows may go on):
    /// their rows, entries and values are freed, their hashes kept to tell one that comes back.
    public mutating func releaseFinished() {
        var keep: [(id: [UInt8], entry: UserTable.Entry, rows: [TimedEntry])] = []
        for i in 0..<users.count {
            let u = users[i]
            if u.finished {
                finished.insert(u.hash)
                handedOut += 1
            } else {
                var rows: [TimedEntry] = []
                self.rows(of: i, into: &rows)
                keep.append((Array(users.id(i)), u, rows))
            }
        }
        users.removeAll()
        held.removeAll()
        arranged.removeAll()
        let old = values
        values = TraceValues()
        lastIndex = nil
        for (id, e, rows) in keep {
            let i = id.withUnsafeBufferPointer { users.insert($0, hash: e.hash, firstRow: e.firstRow, time: e.lastTime) }
            for r in rows { append(i, TimedEntry(time: r.time, entry: values.carry(r.entry, from: old))) }
            var u = users[i]
            u.bad = e.bad
            u.lastTime = e.lastTime
            users[i] = u
            if e.hash == lastHash { lastIndex = i }
        }
    }
}

/// One row of a user: its time and what it says.
public struct TimedEntry: Sendable, BitwiseCopyable {
    public var time: Int
    public var entry: PackedEntry

    public init(time: Int, entry: PackedEntry) {
        self.time = time
        self.entry = entry
    }
}
