/// A reader whose rows can be finished later from their record's bytes alone (CSV's plain
/// records): a split reading keeps the record and the user, and only the worker that takes the row
/// splits the rest (`IndexedRows.completeRow`), instead of the reader splitting every row.
protocol DeferringRowReader: TraceRowReader {
    /// The record of the row `next()` gave last, when `completer` can finish it; nil otherwise.
    var deferredRecord: UnsafeBufferPointer<UInt8>? { get }
    /// What fills a row's slots from such a record (what the reader learned of the trace: CSV's
    /// header); nil until it can.
    var completer: RowCompleter? { get }
}

/// Fills a row's slots from a record `DeferringRowReader.deferredRecord` gave: one case a format.
///
/// Each worker holds its own (`unshared`): two threads retaining one array's storage for every
/// row fight over its reference count, which cost more than the splitting saved.
enum RowCompleter {
    case csv(header: [Int], fieldOfColumn: [Int])

    func complete(_ record: UnsafeBufferPointer<UInt8>, into slots: UnsafeMutablePointer<TraceRow.Slot>) {
        switch self {
        case .csv(let header, let fieldOfColumn): CSVTraceReader.split(record, header: header, fieldOfColumn: fieldOfColumn, slots: slots)
        }
    }

    /// The same, in storage of its own.
    func unshared() -> RowCompleter {
        switch self {
        case .csv(let header, let fieldOfColumn):
            return .csv(header: header.withUnsafeBufferPointer { Array($0) }, fieldOfColumn: fieldOfColumn.withUnsafeBufferPointer { Array($0) })
        }
    }
}
