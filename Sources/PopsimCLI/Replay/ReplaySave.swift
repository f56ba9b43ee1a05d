import PopsimCore
import PopsimReports

/// `replay --save DIR`: each first user named for a failing property, as a plain scenario under
/// the strategy it fails under (`<row>-<user>.<label>.json`; `check` runs it as it is).
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
            // The column's whole label: two columns of one strategy (a sweep) never share a name.
            let label = column.label.hasPrefix(StrategySet.execPrefix) ? strategies.goldenLabel(column.label) : column.label
            let target = (dir.hasSuffix("/") ? dir : dir + "/") + "\(k.user.row)-\(safe(k.user.id)).\(safe(label)).json"
            guard written.insert(target).inserted else { continue }
            let failing = zip(report.properties, k.run.failed).filter(\.1).map(\.0)
            let text = ReplayUserFile.text(root, scenario: k.run.scenario, strategy: column.configuration.entry.name,
                                           options: column.configuration.options.settings,
                                           note: "replayed from \(report.trace), row \(k.user.row); fails: " + failing.joined(separator: "; "))
            do {
                try FileIO.writeAtomically(text, to: target)
            } catch {
                throw PopsimError.io(path: target, reason: error.reason)
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
