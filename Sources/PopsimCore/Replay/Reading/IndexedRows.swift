/// A chunk's rows read by several readers (`SplitReading`), handed out in trace order as the one
/// reader that reads it all hands them out: the same rows, numbers, lines and problems. Each worker
/// reads a batch with its own `IndexedRows` (its own slots), so the workers share only the
/// indexes, which nothing writes while they read.
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
    private var row = 0
    private var problem = 0
    public private(set) var rowCount = 0
    private let storage = TraceRowStorage()

    public init() {}

    /// Starts on a batch of parts, in trace order.
    public mutating func start(_ batch: [Part]) {
        parts = batch
        part = -1
        nextPart()
    }

    private mutating func nextPart() {
        part += 1
        row = 0
        problem = 0
        guard part < parts.count else {
            now = RowIndex.Contents()
            return
        }
        let p = parts[part]
        now = p.index.contents
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

    /// What comes next: a row, by its user's hash (nil: no user), or a problem. A gatherer reads
    /// only its own users' rows further (`current`), and no row is made for the others.
    public enum Step {
        case row(UInt64?)
        case problem(TraceError)
    }

    public mutating func step() -> Step? {
        while part < parts.count {
            if problem < now.problems.count, now.problems[problem].before == row {
                var e = now.problems[problem].error
                problem += 1
                e.location.line += linesBefore
                return .problem(e)
            }
            if row < now.rows.count, let r = now.rows.base?[row] {
                row += 1
                rowCount = rowsBefore + Int(r.row)
                return .row(r.user.count > 0 ? r.hash : nil)
            }
            nextPart()
        }
        return nil
    }

    /// The row `step` gave last, only its user filled in (`completeRow` fills the rest).
    public func current() -> TraceRow {
        guard row > 0, let r = now.rows.base?[row - 1] else { return TraceRow(row: rowCount, line: 0, slots: storage.slots) }
        storage.slots[TraceField.user.ordinal] = slot(r.user)
        return TraceRow(row: rowCount, line: linesBefore + Int(r.line), slots: storage.slots, userHash: r.user.count > 0 ? r.hash : nil)
    }

    public mutating func completeRow() {
        guard row > 0, let r = now.rows.base?[row - 1] else { return }
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
