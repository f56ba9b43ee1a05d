import PopsimCore
import PopsimReports
import PopsimSystem

/// `replay --save DIR`: each first user named for a failing property, as a plain scenario under
/// the strategy it fails under (`<row>-<user>.<label>.json`; `check` runs it as it is); and
/// every user who disagrees with production, its `expect` what production showed
/// (`<row>-<user>.<label>.production.json`, `SavedDisagreements`).
enum ReplaySave {
    /// The catalog's JSON tree, read again to write users from.
    static func catalogRoot(_ bytes: [UInt8], path: String) throws(PopsimError) -> JSONValue {
        do {
            return try JSONReader.parse(bytes)
        } catch {
            throw PopsimError.io(path: path, reason: "cannot read it again to save users")
        }
    }

    static func makeFolder(_ dir: String, command: String = "replay") throws(PopsimError) {
        // The saved names come from user ids (an outsider's): never the root of the file system.
        guard !dir.isEmpty, dir.contains(where: { $0 != "/" }) else {
            throw PopsimError.usage("\(command): --save: expected a folder for the saved users, not the root of the file system")
        }
        do {
            try FileIO.makeDirectories(dir)
        } catch {
            throw PopsimError.io(path: dir, reason: error.reason)
        }
    }

    /// A user's file name under `dir` for a column, without its extension. The column's whole
    /// label: two columns of one strategy (a sweep) never share a name.
    static func stem(_ dir: String, _ user: ReplayTally.UserRef, _ column: Replayer.Column, strategies: StrategySet) -> String {
        let label = column.label.hasPrefix(StrategySet.execPrefix) ? strategies.goldenLabel(column.label) : column.label
        return (dir.hasSuffix("/") ? dir : dir + "/") + "\(user.row)-\(safe(user.id)).\(safe(label))"
    }

    static func text(_ root: JSONValue, _ run: Replayer.Run, _ column: Replayer.Column, trace: String, row: Int, note: String,
                     expect: [String]?) -> String {
        ReplayUserFile.text(root, scenario: run.scenario, strategy: column.configuration.entry.name,
                            options: column.configuration.options.settings,
                            note: "replayed from \(trace), row \(row); " + note, expect: expect)
    }

    /// A disagreeing user's file: production's shows as its `expect`.
    static func disagreement(_ root: JSONValue, _ run: Replayer.Run, _ column: Replayer.Column, trace: String, row: Int) -> String? {
        guard let shows = run.production else { return nil }
        let requested = run.scenario.events.compactMap { e -> PopupID? in if case .enqueue(let p) = e.action { return p } else { return nil } }
        return text(root, run, column, trace: trace, row: row, note: "disagrees with production; expect: what production showed",
                    expect: ReplayUserFile.production(shows, requested: requested, in: run.scenario))
    }

    /// Writes a saved user's file: only ever a regular file of `DIR` (its name comes from a user
    /// id, which an outsider chooses): a link, a folder, a device or a FIFO already under that
    /// name is an error, never followed or written through (issue 41).
    /// A file of that name that is one of the command's `inputs` (by device and inode: a catalog
    /// or a trace named like a saved user) is an error too, never replaced.
    static func write(_ text: String, to target: String, inputs: [String] = []) throws(PopsimError) {
        if let info = System.fileInfo(target, followLinks: false), info.kind != .regular {
            throw PopsimError.io(path: target, reason: "cannot save a user there: "
                                 + (info.kind == .symlink ? "it is a link" : "it is not a regular file") + " (--save writes only regular files of its folder)")
        }
        if OutputGuard.input(among: inputs, beingFile: target) != nil {
            throw PopsimError.io(path: target, reason: "cannot save a user there: it is one of the command's inputs (--save never replaces one)")
        }
        do {
            try FileIO.writeAtomically(text, to: target)
        } catch {
            throw PopsimError.io(path: target, reason: error.reason)
        }
    }

    /// Writes the first users named for a failing property.
    static func writeFailures(_ kept: [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)], report: ReplayReport, root: JSONValue,
                              columns: [Replayer.Column], strategies: StrategySet, to dir: String, inputs: [String]) throws(PopsimError) {
        var written = Set<String>()
        for k in kept.sorted(by: { ($0.user.row, $0.column) < ($1.user.row, $1.column) }) {
            let failing = zip(report.properties, k.run.failed).filter(\.1).map(\.0)
            let target = stem(dir, k.user, columns[k.column], strategies: strategies) + ".json"
            guard written.insert(target).inserted else { continue }
            try write(text(root, k.run, columns[k.column], trace: report.trace, row: k.user.row, note: "fails: " + failing.joined(separator: "; "),
                           expect: nil), to: target, inputs: inputs)
        }
    }

    /// A user id or label as a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
    static func safe(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.prefix(60).map { c in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ".") ? c : "_"
        }))
    }
}

/// Every user who disagrees with production, for `--save`: handed over by the workers as they
/// replay (any thread), written at once into one temporary file (removed as it is made, like the
/// partitions: nothing is left if popsim stops), and into `DIR` only when the replay ends well —
/// so memory holds a file name per user, not their scenarios.
final class SavedDisagreements: Sendable {
    /// What the workers add to, behind the lock: the temporary file and what it holds.
    private struct Kept {
        let store: TracePartitions
        var files: [(path: String, bytes: Int)] = []
        /// Bytes of an earlier reading of the trace, not written (`startOver`).
        var discarded = 0
        var failure: PopsimError?
    }

    private let kept: System.Locked<Kept>
    private let root: JSONValue
    private let columns: [Replayer.Column]
    private let strategies: StrategySet
    private let dir: String
    private let trace: String
    /// The command's inputs: never written over (`ReplaySave.write`).
    let inputs: [String]

    init(root: JSONValue, columns: [Replayer.Column], strategies: StrategySet, dir: String, trace: String, folder: String,
         inputs: [String]) throws(PopsimError) {
        kept = System.Locked(Kept(store: try TracePartitions(count: 1, folder: folder)))
        self.root = root
        self.columns = columns
        self.strategies = strategies
        self.dir = dir
        self.trace = trace
        self.inputs = inputs
    }

    /// Throws when a disagreeing user could not be kept (a full temporary folder, a file-size
    /// limit): before any user is written to `DIR`, so a replay that stops writes none.
    func check() throws(PopsimError) {
        if let failure = kept.withLock({ $0.failure }) { throw failure }
    }

    deinit { kept.withLock { $0.store.close() } }

    /// Keeps a disagreeing user's file (a worker's thread).
    func add(_ column: Int, _ user: ReplayTally.UserRef, _ run: Replayer.Run) {
        guard let text = ReplaySave.disagreement(root, run, columns[column], trace: trace, row: user.row) else { return }
        let path = ReplaySave.stem(dir, user, columns[column], strategies: strategies) + ".production.json"
        let bytes = Array(text.utf8)
        kept.withLock { k in
            guard k.failure == nil else { return }
            do throws(PopsimError) {
                try k.store.append(0, bytes)
                k.files.append((path, bytes.count))
            } catch {
                k.failure = .io(path: dir, reason: "cannot keep the users who disagree with production until the replay ends (a temporary file): "
                                + System.lastError + "; nothing was saved")
            }
        }
    }

    /// Forgets the users kept so far: the trace is read again from its start.
    func startOver() {
        kept.withLock { k in
            k.discarded = k.store.size(0)
            k.files = []
        }
    }

    /// Writes every file kept into `DIR`, each as soon as it is read back; none when the trace
    /// has no `shown` row (no production to disagree with). Called once the workers are done.
    func write(hasProduction: Bool) throws(PopsimError) {
        try kept.withLock { (k) throws(PopsimError) in
            if let failure = k.failure { throw failure }
            guard hasProduction else { return }
            let files = k.files
            var pending: [UInt8] = [], next = 0, skip = k.discarded
            var failed: PopsimError?
            try k.store.read(0) { piece in
                let dropped = min(skip, piece.count)
                skip -= dropped
                pending += piece[dropped...]
                var used = 0
                while failed == nil, next < files.count, pending.count - used >= files[next].bytes {
                    let text = String(decoding: pending[used..<used + files[next].bytes], as: UTF8.self)
                    do throws(PopsimError) { try ReplaySave.write(text, to: files[next].path, inputs: inputs) } catch { failed = error }
                    used += files[next].bytes
                    next += 1
                }
                pending.removeFirst(used)
            }
            if let failed { throw failed }
        }
    }

    var count: Int { kept.withLock { $0.files.count } }
}
