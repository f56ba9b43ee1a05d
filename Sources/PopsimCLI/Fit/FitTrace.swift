import PopsimCore
import PopsimReports

/// A trace read whole into its users, for `fit` (which replays each user under hundreds of
/// candidates, so it holds them: memory grows with the trace, about 250 bytes a row).
struct FitTrace {
    var users: [Replayer.User] = []
    var rows = 0
    var errors: [TraceError] = []
    var errorCount = 0
    var skippedUsers = 0
    var digest = ""
    var sawShown = false
    var unmapped = UnmappedEvents()
    var warnings: [TraceWarning] = []

    /// Reads `path` (`-`: standard input); stops at the first bad row past `maxErrors`.
    static func read(_ path: String, layout given: TraceLayout, formatKnown: Bool, catalog: Scenario, maxErrors: Int,
                     progress: ProgressLine?) throws(PopsimError) -> FitTrace {
        var source = try TraceSource(path, hashing: true)
        defer { source.close() }
        var reading: Reading?
        let digest = source.digest
        try source.forEachChunk { (chunk) throws(PopsimError) -> Bool in
            let r = reading ?? Reading(chunk, layout: given, formatKnown: formatKnown, path: path, catalog: catalog, maxErrors: maxErrors)
            reading = r
            digest.add(chunk)
            r.read(chunk)
            progress?.update("fit: reading, \(r.reader.rowCount) rows, \(r.gatherer.userCount) users")
            return r.gatherer.errorCount <= maxErrors && !r.gatherer.stopsReading
        }
        let r = reading ?? Reading(UnsafeBufferPointer(start: nil, count: 0), layout: given, formatKnown: formatKnown, path: path,
                                   catalog: catalog, maxErrors: maxErrors)
        if r.gatherer.errorCount <= maxErrors && !r.gatherer.stopsReading { r.finish() }
        let g = r.gatherer
        var out = FitTrace()
        out.rows = r.reader.rowCount
        out.errors = g.errorsInOrder
        out.errorCount = g.errorCount
        out.skippedUsers = g.skippedUsers
        out.sawShown = g.sawShown
        out.unmapped = g.unmapped
        out.digest = digest.text
        out.warnings = TraceWarnings.check([g], catalog: catalog, layout: r.layout)
        guard out.errorCount <= maxErrors, !g.stopsReading else { return out }
        var rows: [TimedEntry] = []
        for i in 0..<g.heldUsers {
            let u = g.user(i)
            guard !u.bad else { continue }
            g.rows(of: i, into: &rows)
            out.users.append(Replayer.User(id: u.id, firstRow: u.firstRow, rows: rows, values: g.values))
        }
        return out
    }

    /// The reader and the gatherer, made on the first chunk (the format told by it when neither
    /// the command line nor the file name says), fed in place.
    final class Reading {
        var reader: any TraceRowReader
        var gatherer: UserGatherer
        let layout: TraceLayout

        init(_ first: UnsafeBufferPointer<UInt8>, layout given: TraceLayout, formatKnown: Bool, path: String, catalog: Scenario, maxErrors: Int) {
            var layout = given
            if !formatKnown { layout.format = TraceFormats.sniffed(first) }
            self.layout = layout
            reader = layout.format.makeReader(layout, file: path)
            gatherer = UserGatherer(decoder: TraceRowDecoder(file: path, layout: layout, catalog: catalog), worker: 0, workers: 1, shard: nil,
                                    promisedGrouped: false, maxErrors: maxErrors)
        }

        func read(_ chunk: UnsafeBufferPointer<UInt8>) {
            reader.feed(chunk)
            gatherer.read(&reader)
        }

        func finish() {
            reader.finish()
            gatherer.read(&reader)
        }
    }
}
