/// The rows and problems one reader handed out from a piece of a chunk, kept so that every worker
/// can read them once the reader is done (`SplitReading`): how the workers share a chunk's reading
/// instead of each reading all of it.
///
/// Per row: the user's hash (taken here, once, for every worker), its number and line (the
/// reader's own; `IndexedRows` adds where the piece starts), the user field, and either the record
/// (a `DeferringRowReader`'s, split later by the worker that takes the row) or every field. A
/// field that lies in the chunk is kept as its offset there; any other (in the record an earlier
/// chunk began, or unquoted or unescaped into the reader's storage) is copied in, so the index
/// stays good while the chunk does, whatever its reader does next. About 40 bytes a row, 100 with
/// every field.
///
/// Rows are routed to their worker (`UserGatherer.worker`; rows without a user are worker 0's):
/// each row links to the next of the same worker, so a worker reads only its own rows and makes
/// nothing of the others'. What the others' rows tell about the order of users — another user's
/// row ends a user's rows — travels as a flag on each row of the shard (`foreignBefore`: a row of
/// another worker's user in the shard came since this worker's last one) and, per piece, the
/// worker of the last row of the shard (`lastInShardWorker`). The first such row of a piece cannot
/// know what came before the piece: the split reading sets its flag (`setForeignBefore`).
///
/// Contract: offsets and counts fit 32 bits: a chunk and what is copied from one are below 1 GiB
/// (`SplitReading` splits only such chunks; a record is at most `RecordChunks.maxRecordBytes`).
/// Its buffers live behind a constant pointer: a class's `var`s are checked for exclusive access
/// on every use.
final class RowIndex {
    /// Bytes: `offset` into the chunk, or (below zero) at `-offset - 1` in `copied`.
    struct Slot {
        var offset: Int32
        var count: Int32
        var column: Int32
    }

    struct Row {
        var hash: UInt64
        var row: Int32
        var line: Int32
        var user: Slot
        /// The record's bytes, or, when `record.count` is below zero, every field:
        /// `TraceField.count` slots from `record.offset` in `slots`. Its `column` is the link
        /// (`next`, `foreignBefore`): a row is 40 bytes, as the memory plan counts.
        var record: Slot

        /// No next row: the link's low 31 bits all set.
        static let none = 0x7FFF_FFFF

        /// The index of the next row of the same worker in the piece (`none`: the last).
        var next: Int { Int(UInt32(bitPattern: record.column) & 0x7FFF_FFFF) }

        /// Whether a row of another worker's user in the shard came between this worker's last
        /// row of the shard and this one (this row's user being in the shard).
        var foreignBefore: Bool { record.column < 0 }

        mutating func link(next: Int) {
            record.column = (record.column & Int32(bitPattern: 0x8000_0000)) | Int32(truncatingIfNeeded: next)
        }

        mutating func mark(foreignBefore: Bool) {
            record.column = (record.column & 0x7FFF_FFFF) | (foreignBefore ? Int32(bitPattern: 0x8000_0000) : 0)
        }
    }

    struct Contents {
        var rows = FlatBuffer<Row>()
        var slots = FlatBuffer<Slot>()
        var copied = FlatBuffer<UInt8>()
        /// Problems, each after the rows before it.
        var problems: [(before: Int, error: TraceError)] = []
        /// The chunk the offsets are into.
        var chunk = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        /// Each worker's first row (`Row.none`: it has none here), then each one's last.
        var heads: UnsafeMutablePointer<Int>?
        /// The first row whose user is in the shard, and the worker of the last one (-1: none).
        var firstInShard = -1
        var lastInShardWorker = -1

        /// Where `bytes` are kept: in the chunk, or copied.
        mutating func keep(_ base: UnsafePointer<UInt8>?, _ count: Int, column: Int) -> Slot {
            let column = Int32(truncatingIfNeeded: column)
            guard let base, count > 0 else { return Slot(offset: 0, count: 0, column: column) }
            let start = chunk.baseAddress.map { UInt(bitPattern: $0) } ?? 0
            let at = UInt(bitPattern: base)
            if at >= start, at + UInt(count) <= start + UInt(chunk.count) {
                return Slot(offset: Int32(truncatingIfNeeded: at - start), count: Int32(truncatingIfNeeded: count), column: column)
            }
            let offset = copied.count
            copied.append(UnsafeBufferPointer(start: base, count: count))
            return Slot(offset: -1 - Int32(truncatingIfNeeded: offset), count: Int32(truncatingIfNeeded: count), column: column)
        }

        /// The bytes a slot keeps.
        @inline(__always)
        func bytes(_ s: Slot) -> UnsafePointer<UInt8>? {
            if s.count <= 0 { return nil }
            if s.offset >= 0 { return chunk.baseAddress.map { $0 + Int(s.offset) } }
            return copied.base.map { UnsafePointer($0) + Int(-1 - s.offset) }
        }
    }

    private let state: UnsafeMutablePointer<Contents>
    /// The workers its rows are routed to, and the shard whose users' order is followed.
    let workers: Int
    let shard: Shard?
    /// Each worker's last row so far (`Row.none`: none yet), after the heads.
    private let tails: UnsafeMutablePointer<Int>

    init(workers: Int = 1, shard: Shard? = nil) {
        self.workers = max(1, workers)
        self.shard = shard
        let links = UnsafeMutablePointer<Int>.allocate(capacity: 2 * self.workers)
        links.initialize(repeating: Row.none, count: 2 * self.workers)
        tails = links + self.workers
        state = .allocate(capacity: 1)
        state.initialize(to: Contents())
        state.pointee.heads = links
    }

    deinit {
        state.pointee.rows.free()
        state.pointee.slots.free()
        state.pointee.copied.free()
        state.pointee.heads?.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// What it holds (valid until it is reset or filled again).
    var contents: Contents { state.pointee }

    /// Empties it for the rows of `chunk`.
    func reset(chunk: UnsafeBufferPointer<UInt8>) {
        state.pointee.chunk = chunk
        state.pointee.rows.count = 0
        state.pointee.slots.count = 0
        state.pointee.copied.count = 0
        state.pointee.problems.removeAll(keepingCapacity: true)
        state.pointee.heads?.update(repeating: Row.none, count: 2 * workers)
        state.pointee.firstInShard = -1
        state.pointee.lastInShardWorker = -1
    }

    /// Sets the flag of the piece's first row of the shard, which could not tell what came before
    /// the piece: `last` is the worker of the shard's last row before it (-1: none).
    func setForeignBefore(last: Int) {
        let first = state.pointee.firstInShard
        guard first >= 0, let rows = state.pointee.rows.base else { return }
        let w = UserGatherer.worker(of: rows[first].hash, among: workers)
        rows[first].mark(foreignBefore: last >= 0 && last != w)
    }

    /// Pulls rows and problems from `reader`, fed already, until it has no more (true) or
    /// `limit` rows are in (false); a `DeferringRowReader`'s rows keep their record.
    func fill(from reader: inout any TraceRowReader, limit: Int) -> Bool {
        if var d = reader as? any DeferringRowReader {
            defer { reader = d }
            return fill(deferring: &d, limit: limit)
        }
        return fill(whole: &reader, limit: limit)
    }

    // Two loops, not one taking the record through a closure: a closure of the reader copied
    // the reader (its arrays and storage retained) for every row, and reading took twice as long.
    private func fill<R: DeferringRowReader>(deferring reader: inout R, limit: Int) -> Bool {
        while true {
            if state.pointee.rows.count >= limit { return false }
            guard let pulled = reader.next() else { return true }
            switch pulled {
            case .row(let row):
                let record = reader.deferredRecord
                if record == nil { reader.completeRow() }
                add(row, record: record)
            case .problem(let e):
                state.pointee.problems.append((state.pointee.rows.count, e))
            }
        }
    }

    private func fill<R: TraceRowReader>(whole reader: inout R, limit: Int) -> Bool {
        while true {
            if state.pointee.rows.count >= limit { return false }
            guard let pulled = reader.next() else { return true }
            switch pulled {
            case .row(let row):
                reader.completeRow()
                add(row, record: nil)
            case .problem(let e):
                state.pointee.problems.append((state.pointee.rows.count, e))
            }
        }
    }

    private func add(_ row: TraceRow, record: UnsafeBufferPointer<UInt8>?) {
        let u = row.slots[TraceField.user.ordinal]
        let hash = u.count > 0 ? u.base.map { UserTable.hash(UnsafeBufferPointer(start: $0, count: u.count)) } ?? 0 : 0
        var user: Slot, kept: Slot
        if let record, let at = Self.offset(record, in: state.pointee.chunk) {
            // A record in the chunk (the common case) holds its user: one range check for both.
            kept = Slot(offset: Int32(truncatingIfNeeded: at), count: Int32(truncatingIfNeeded: record.count), column: 0)
            user = Slot(offset: 0, count: 0, column: Int32(truncatingIfNeeded: u.column))
            if let ub = u.base, u.count > 0, let rb = record.baseAddress, ub >= rb, ub + u.count <= rb + record.count {
                user.offset = Int32(truncatingIfNeeded: at + (ub - rb))
                user.count = Int32(truncatingIfNeeded: u.count)
            } else if u.count > 0 {
                user = state.pointee.keep(u.base, u.count, column: u.column)
            }
        } else if let record {
            user = state.pointee.keep(u.base, u.count, column: u.column)
            kept = state.pointee.keep(record.baseAddress, record.count, column: 0)
        } else {
            user = state.pointee.keep(u.base, u.count, column: u.column)
            kept = Slot(offset: Int32(truncatingIfNeeded: state.pointee.slots.count), count: -1, column: 0)
            state.pointee.slots.reserve(state.pointee.slots.count + TraceField.count)
            for f in 0..<TraceField.count {
                let s = row.slots[f]
                let slot = state.pointee.keep(s.base, s.count, column: s.column)
                state.pointee.slots.append(slot)
            }
        }
        var r = Row(hash: hash, row: Int32(truncatingIfNeeded: row.row), line: Int32(truncatingIfNeeded: row.line), user: user, record: kept)
        route(&r, hasUser: u.count > 0)
        state.pointee.rows.append(r)
    }

    /// Where `bytes` (not empty) start in `chunk`, when they lie wholly in it.
    @inline(__always)
    private static func offset(_ bytes: UnsafeBufferPointer<UInt8>, in chunk: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let b = bytes.baseAddress, let c = chunk.baseAddress, !bytes.isEmpty, b >= c,
              b + bytes.count <= c + chunk.count else { return nil }
        return b - c
    }

    /// Links the row to be added after its worker's last, and flags it when another worker's
    /// user's row of the shard came since (the piece's first row of the shard is left for
    /// `setForeignBefore`).
    @inline(__always)
    private func route(_ r: inout Row, hasUser: Bool) {
        let n = state.pointee.rows.count
        var w = 0
        if hasUser {
            w = UserGatherer.worker(of: r.hash, among: workers)
            if shard?.contains(hash: r.hash) ?? true {
                let last = state.pointee.lastInShardWorker
                if last < 0 { state.pointee.firstInShard = n }
                r.mark(foreignBefore: last >= 0 && last != w)
                state.pointee.lastInShardWorker = w
            }
        }
        r.link(next: Row.none)
        let tail = tails[w]
        if tail == Row.none {
            state.pointee.heads?[w] = n
        } else {
            state.pointee.rows.base?[tail].link(next: n)
        }
        tails[w] = n
    }
}
