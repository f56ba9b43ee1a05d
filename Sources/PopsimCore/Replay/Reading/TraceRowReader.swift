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
    /// The next row or problem in what was fed, or nil: feed more (after `finish`: the end).
    mutating func next() -> TracePull?
    /// Rows handed out so far (bad ones included, as the format counts them).
    var rowCount: Int { get }
}

/// What a pull gives: a row, or a problem with the next record.
public enum TracePull {
    case row(TraceRow)
    case problem(TraceError)
}
