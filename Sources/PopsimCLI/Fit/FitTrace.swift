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
    var unmapped: [String: Int] = [:]

    /// Reads `path` (`-`: standard input); stops at the first bad row past `maxErrors`.
    static func read(_ path: String, layout given: TraceLayout, formatKnown: Bool, catalog: Scenario, maxErrors: Int,
                     progress: ProgressLine?) throws(PopsimError) -> FitTrace {
        var source = try TraceSource(path, hashing: true)
        defer { source.close() }
        var layout = given
        var reader: (any TraceRowReader)?
        var gatherer: UserGatherer?
        let digest = source.digest
        try source.forEachChunk { (chunk) throws(PopsimError) -> Bool in
            if reader == nil {
                if !formatKnown { layout.format = TraceFormats.sniffed(chunk) }
                reader = layout.format.makeReader(layout, file: path)
                gatherer = UserGatherer(decoder: TraceRowDecoder(file: path, layout: layout, catalog: catalog), worker: 0, workers: 1, shard: nil,
                                        promisedGrouped: false, maxErrors: maxErrors)
            }
            digest.add(chunk)
            guard var r = reader, var g = gatherer else { return false }
            reader = nil
            r.feed(chunk)
            g.read(&r)
            reader = r
            gatherer = g
            progress?.update("fit: reading, \(r.rowCount) rows, \(g.userCount) users")
            return g.errorCount <= maxErrors && !g.stopsReading
        }
        if reader == nil {
            reader = layout.format.makeReader(layout, file: path)
            gatherer = UserGatherer(decoder: TraceRowDecoder(file: path, layout: layout, catalog: catalog), worker: 0, workers: 1, shard: nil,
                                    promisedGrouped: false, maxErrors: maxErrors)
        }
        guard var r = reader, var g = gatherer else { throw PopsimError.internalError("fit: no trace reader") }
        var out = FitTrace()
        if g.errorCount <= maxErrors && !g.stopsReading {
            r.finish()
            g.read(&r)
        }
        out.rows = r.rowCount
        out.errors = g.errorsInOrder
        out.errorCount = g.errorCount
        out.skippedUsers = g.skippedUsers
        out.sawShown = g.sawShown
        out.unmapped = g.unmapped
        out.digest = digest.text
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
}
