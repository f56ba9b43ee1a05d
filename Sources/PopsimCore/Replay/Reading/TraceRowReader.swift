/// Rows out of a trace's bytes, pulled one at a time (libCacheSim's `read_one_req`): a reader knows
/// its format and nothing of users, catalogs or the simulator.
///
/// Contract: bytes are fed in chunks of any size and give the same rows and problems as the whole
/// trace at once; a chunk must stay valid until `next()` returns nil; memory is one record plus
/// one chunk. A record that cannot be split is a located problem, never a crash, and reading
/// goes on (the caller decides when to stop).
public protocol TraceRowReader {
    /// The next bytes of the trace.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>)
    /// The end of the trace: the last record needs no line break.
    mutating func finish()
    /// The next row or problem in what was fed, or nil: feed more (after `finish`: the end). The
    /// row may hold only its `user` until `completeRow()` is called: a caller that replays only
    /// some users reads the others' rows no further.
    mutating func next() -> TracePull?
    /// Fills the fields of the row `next()` gave last (valid until the next pull).
    mutating func completeRow()
    /// Rows handed out so far (bad ones included, as the format counts them).
    var rowCount: Int { get }

    // Splitting a chunk's reading (`SplitReading`)

    /// A reader of the same trace for bytes that start a record further on: what this one learned
    /// of the trace (CSV: its header) and nothing else, storage of its own, rows and lines counted
    /// from its start (`advance` moves them on); nil while it cannot (before the header).
    func resumed() -> Self?
    /// Whether every byte fed is in a record handed out (nothing carried, no quote open): once
    /// `next()` gave nil, the next byte starts a record.
    var isBetweenRecords: Bool { get }
    /// The lines it has passed (the line the next record starts on, less one).
    var linesRead: Int { get }
    /// Counts `rows` rows and `lines` lines before its own: it resumed after them.
    mutating func advance(rows: Int, lines: Int)
}

extension TraceRowReader {
    /// Rows whole: by default a reader's rows are whole from the start.
    public mutating func completeRow() {}

    /// The next row with every field, or a problem, or nil.
    public mutating func nextWhole() -> TracePull? {
        let pulled = next()
        if case .row = pulled { completeRow() }
        return pulled
    }
}

/// What a pull gives: a row, or a problem with the next record.
public enum TracePull {
    case row(TraceRow)
    case problem(TraceError)
}
