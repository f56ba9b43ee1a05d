import PopsimCore
import PopsimReports

/// `replay --save DIR`: each first user named for a failing property, as a plain scenario under
/// the strategy it fails under (`<row>-<user>.<label>.json`; `check` runs it as it is); and
/// each first user named for disagreeing with production, its `expect` what production showed
/// (`<row>-<user>.<label>.production.json`).
enum ReplaySave {
    static func write(_ kept: [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)], report: ReplayReport, catalogBytes: [UInt8],
                      catalogPath: String, columns: [Replayer.Column], strategies: StrategySet, to dir: String,
                      console: inout Console) throws(PopsimError) {
        let root: JSONValue
        do {
            root = try JSONReader.parse(catalogBytes)
        } catch {
            throw PopsimError.io(path: catalogPath, reason: "cannot read it again to save users")
        }
        do {
            try FileIO.makeDirectories(dir)
        } catch {
            throw PopsimError.io(path: dir, reason: error.reason)
        }
        var written = Set<String>()
        for k in kept.sorted(by: { ($0.user.row, $0.column) < ($1.user.row, $1.column) }) {
            let column = columns[k.column]
            let tally = report.tallies.columns[k.column]
            // The column's whole label: two columns of one strategy (a sweep) never share a name.
            let label = column.label.hasPrefix(StrategySet.execPrefix) ? strategies.goldenLabel(column.label) : column.label
            let stem = (dir.hasSuffix("/") ? dir : dir + "/") + "\(k.user.row)-\(safe(k.user.id)).\(safe(label))"
            let failing = zip(report.properties, k.run.failed).filter(\.1).map(\.0)
            func save(_ target: String, note: String, expect: [String]?) throws(PopsimError) {
                guard written.insert(target).inserted else { return }
                let text = ReplayUserFile.text(root, scenario: k.run.scenario, strategy: column.configuration.entry.name,
                                               options: column.configuration.options.settings,
                                               note: "replayed from \(report.trace), row \(k.user.row); " + note, expect: expect)
                do {
                    try FileIO.writeAtomically(text, to: target)
                } catch {
                    throw PopsimError.io(path: target, reason: error.reason)
                }
            }
            if tally.failing.enumerated().contains(where: { i, list in k.run.failed[i] && list.contains(k.user) }) {
                try save(stem + ".json", note: "fails: " + failing.joined(separator: "; "), expect: nil)
            }
            if report.hasProduction, let shows = k.run.production, tally.disagreeing.contains(k.user) {
                let requested = k.run.scenario.events.compactMap { e -> PopupID? in if case .enqueue(let p) = e.action { return p } else { return nil } }
                try save(stem + ".production.json", note: "disagrees with production; expect: what production showed",
                         expect: ReplayUserFile.production(shows, requested: requested, in: k.run.scenario))
            }
        }
    }

    /// A user id or label as a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
    static func safe(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.prefix(60).map { c in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ".") ? c : "_"
        }))
    }
}
