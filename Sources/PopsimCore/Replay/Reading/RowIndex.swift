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
        /// The record's bytes (`column` unused), or, when `record.count` is below zero, every
        /// field: `TraceField.count` slots from `record.offset` in `slots`.
        var record: Slot
    }

    struct Contents {
        var rows = FlatBuffer<Row>()
        var slots = FlatBuffer<Slot>()
        var copied = FlatBuffer<UInt8>()
        /// Problems, each after the rows before it.
        var problems: [(before: Int, error: TraceError)] = []
        /// The chunk the offsets are into.
        var chunk = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

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

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: Contents())
    }

    deinit {
        state.pointee.rows.free()
        state.pointee.slots.free()
        state.pointee.copied.free()
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
        let hash = row[.user].map(UserTable.hash) ?? 0
        let user = state.pointee.keep(u.base, u.count, column: u.column)
        var kept: Slot
        if let record {
            kept = state.pointee.keep(record.baseAddress, record.count, column: 0)
        } else {
            kept = Slot(offset: Int32(truncatingIfNeeded: state.pointee.slots.count), count: -1, column: 0)
            state.pointee.slots.reserve(state.pointee.slots.count + TraceField.count)
            for f in 0..<TraceField.count {
                let s = row.slots[f]
                let slot = state.pointee.keep(s.base, s.count, column: s.column)
                state.pointee.slots.append(slot)
            }
        }
        state.pointee.rows.append(Row(hash: hash, row: Int32(truncatingIfNeeded: row.row), line: Int32(truncatingIfNeeded: row.line),
                                      user: user, record: kept))
    }
}
