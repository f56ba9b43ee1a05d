import PopsimCore
import PopsimReports

extension ReplayCommand {
    /// What reading a trace found, as the report and a pack's manifest say it: from the reading
    /// itself, or from a pack's manifest (the same figures, read once when it was packed).
    struct Reading {
        var trace: String
        var traceBytes: Int
        var traceDigest: String
        var catalogDigest: String
        /// How it was read (`ReplayCommand.readingLines`).
        var lines: [String]
        var maxErrors: Int
        var rows: Int
        var badRows: Int
        var userErrors: Int
        var skippedUsers: Int
        var hasProduction: Bool
        var hasTriggers: Bool
        var unmapped: [(event: String, rows: Int)]

        init(_ pass: ReplayPass, source: TraceSource, path: String, layout: TraceLayout, maxErrors: Int, catalogDigest: String) {
            trace = path
            traceBytes = source.bytes
            traceDigest = source.digest.text
            self.catalogDigest = catalogDigest
            lines = ReplayCommand.readingLines(layout)
            self.maxErrors = maxErrors
            rows = pass.rows
            badRows = pass.errors.count - pass.userErrors
            userErrors = pass.userErrors
            skippedUsers = pass.skippedUsers
            hasProduction = pass.sawShown
            hasTriggers = pass.sawTrigger
            unmapped = ReplayReport.unmapped(pass.unmapped)
        }

        init(_ m: TracePack.Manifest) {
            trace = m.trace
            traceBytes = m.traceBytes
            traceDigest = m.traceDigest
            catalogDigest = m.catalogDigest
            lines = m.reading
            maxErrors = m.maxErrors
            rows = m.rows
            badRows = m.badRows
            userErrors = m.userErrors
            skippedUsers = m.skippedUsers
            hasProduction = m.hasProduction
            hasTriggers = m.hasTriggers
            unmapped = ReplayReport.unmapped(Dictionary(m.unmapped.map { ($0.event, $0.rows) }, uniquingKeysWith: +))
        }

        /// The manifest of a pack of `users` users read this way (its blocks set by the writer).
        func manifest(users: Int) -> TracePack.Manifest {
            TracePack.Manifest(trace: trace, traceBytes: traceBytes, traceDigest: traceDigest, catalogDigest: catalogDigest, reading: lines,
                               maxErrors: maxErrors, rows: rows, badRows: badRows, userErrors: userErrors, skippedUsers: skippedUsers,
                               hasProduction: hasProduction, hasTriggers: hasTriggers, unmapped: unmapped, users: users, blocks: [])
        }
    }
}
