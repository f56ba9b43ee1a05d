/// A chunk's rows read by several readers (`SplitReading`), a worker's share of them handed out in
/// trace order as the one reader that reads it all hands them out: the same rows, numbers, lines
/// and problems (worker 0 has the problems). Each worker reads a batch with its own `IndexedRows`
/// (its own slots), so the workers share only the indexes, which nothing writes while they read;
/// it follows the links of its own rows (`RowIndex`) and never sees another worker's.
public struct IndexedRows: TraceRowReader {
    /// One piece's index and where it starts in the trace: the rows and lines before it.
    /// `@unchecked Sendable`, audited: the split reading writes an index only while no worker reads
    /// (in `index`, `settle` and `more`, which the caller runs before handing the batch out), and
    /// workers only read it.
    public struct Part: @unchecked Sendable {
        let index: RowIndex
        let rows: Int
        let lines: Int
        /// What finishes a kept record (the reader's `completer`).
        let completer: RowCompleter?
    }

    private var parts: [Part] = []
    private var part = -1
    /// The part being read.
    private var now = RowIndex.Contents()
    /// Its own copy of the parts' completer.
    private var completer: RowCompleter?
    private var rowsBefore = 0
    private var linesBefore = 0
    /// Whose rows it hands out.
    private var worker = 0
    /// The row `step` gave last (-1: none yet in this part), and the next of the worker's.
    private var at = -1
    private var following = RowIndex.Row.none
    /// Rows of the worker's further on in the part, whose users the gatherer asks the cache for:
    /// once `upcoming` moved them on after a row `step` gave, `lookAhead` rows and half as many
    /// after that row (16: a row costs ~200 instructions, a miss to memory ~300 cycles).
    private var far = RowIndex.Row.none
    private var near = RowIndex.Row.none
    static let lookAhead = 16
    private var problem = 0
    public private(set) var rowCount = 0
    /// Whether the batch's last row of the shard is another worker's user's: then that user's
    /// row ended this worker's last user's rows after its last row here.
    public private(set) var foreignAfter = false
    private let storage = TraceRowStorage()

    public init() {}

    /// Starts on a batch of parts, in trace order, for `worker`'s rows.
    public mutating func start(_ batch: [Part], worker: Int = 0) {
        parts = batch
        part = -1
        self.worker = worker
        let last = batch.last { $0.index.contents.lastInShardWorker >= 0 }?.index.contents.lastInShardWorker
        foreignAfter = last.map { $0 != worker } ?? false
        nextPart()
    }

    private mutating func nextPart() {
        part += 1
        at = -1
        problem = 0
        guard part < parts.count else {
            now = RowIndex.Contents()
            following = RowIndex.Row.none
            return
        }
        let p = parts[part]
        now = p.index.contents
        following = worker < p.index.workers ? (now.heads?[worker] ?? RowIndex.Row.none) : RowIndex.Row.none
        far = following
        near = following
        // One row short: `upcoming`, after the part's first row, moves both on.
        for k in 0..<(Self.lookAhead - 1) {
            far = next(after: far)
            if k < Self.lookAhead / 2 - 1 { near = far }
        }
        if completer == nil { completer = p.completer?.unshared() }
        rowsBefore = p.rows
        linesBefore = p.lines
    }

    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) {}
    public mutating func finish() {}

    /// The next row, only its user filled in (`completeRow` fills the rest).
    public mutating func next() -> TracePull? {
        switch step() {
        case .row?: return .row(current())
        case .problem(let e)?: return .problem(e)
        case nil: return nil
        }
    }

    /// What comes next: one of the worker's rows, by its user's hash (nil: no user) and whether
    /// another worker's user's row of the shard came since the worker's last (`RowIndex`), or a
    /// problem (worker 0's).
    public enum Step {
        case row(UInt64?, foreignBefore: Bool)
        case problem(TraceError)
    }

    public mutating func step() -> Step? {
        while part < parts.count {
            // A problem comes before the row it was found before.
            if worker == 0, problem < now.problems.count, now.problems[problem].before <= following {
                var e = now.problems[problem].error
                problem += 1
                e.location.line += linesBefore
                return .problem(e)
            }
            if following < now.rows.count, let r = now.rows.base?[following] {
                at = following
                following = r.next
                rowCount = rowsBefore + Int(r.row)
                return .row(r.user.count > 0 ? r.hash : nil, foreignBefore: r.foreignBefore)
            }
            nextPart()
        }
        return nil
    }

    /// The worker's row after `row` in the part (`none` after the last).
    @inline(__always)
    private func next(after row: Int) -> Int {
        guard row < now.rows.count, let rows = now.rows.base else { return RowIndex.Row.none }
        return rows[row].next
    }

    /// The hash of `row`'s user in the part (0 past its last).
    @inline(__always)
    private func hash(of row: Int) -> UInt64 {
        guard row < now.rows.count, let rows = now.rows.base else { return 0 }
        return rows[row].hash
    }

    /// After a row `step` gave: the users' hashes of the worker's rows `lookAhead` rows on and
    /// half as many on, in this part (0 past its last), what to ask the cache for (a slot far
    /// ahead, an entry nearer). Apart from `step`, which it keeps small enough to be inlined.
    @inline(__always)
    public mutating func upcoming() -> (far: UInt64, near: UInt64) {
        far = next(after: far)
        near = next(after: near)
        return (hash(of: far), hash(of: near))
    }

    /// The row `step` gave last, only its user filled in (`completeRow` fills the rest).
    @inline(__always)
    public func current() -> TraceRow {
        guard at >= 0, let r = now.rows.base?[at] else { return TraceRow(row: rowCount, line: 0, slots: storage.slots) }
        storage.slots[TraceField.user.ordinal] = slot(r.user)
        return TraceRow(row: rowCount, line: linesBefore + Int(r.line), slots: storage.slots, userHash: r.user.count > 0 ? r.hash : nil)
    }

    @inline(__always)
    public mutating func completeRow() {
        guard at >= 0, let r = now.rows.base?[at] else { return }
        if r.record.count >= 0 {
            completer?.complete(UnsafeBufferPointer(start: now.bytes(r.record), count: Int(r.record.count)), into: storage.slots)
            return
        }
        guard let kept = now.slots.base else { return }
        for f in 0..<TraceField.count { storage.slots[f] = slot(kept[Int(r.record.offset) + f]) }
    }

    @inline(__always)
    private func slot(_ s: RowIndex.Slot) -> TraceRow.Slot {
        TraceRow.Slot(base: now.bytes(s), count: Int(max(0, s.count)), column: Int(s.column))
    }

    public func resumed() -> IndexedRows? { nil }
    public var isBetweenRecords: Bool { true }
    public var linesRead: Int { 0 }
    public mutating func advance(rows: Int, lines: Int) {}
}
