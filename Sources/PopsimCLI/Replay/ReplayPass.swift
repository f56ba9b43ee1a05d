import Dispatch
import PopsimCore
import PopsimReports

/// One pass over a trace: rows read, decoded and grouped by user, users replayed in batches on
/// `jobs` threads and added up.
///
/// Memory: with `grouped` (each user's rows together), one batch of users; without, every row
/// of the users of this shard until the end (docs/replay.md says so).
struct ReplayPass {
    let replayer: Replayer
    let decoder: TraceDecoder
    let shard: Shard?
    let grouped: Bool
    let maxErrors: Int
    let jobs: Int
    let saving: Bool

    var rows = 0
    var errors: [LoadError] = []
    /// Errors printed: the first `maxErrors + 1` (the rest are counted).
    var shownErrors: Int { min(errors.count, maxErrors + 1) }
    var skippedUsers = 0
    var sawShown = false
    var stopped: PopsimError?
    var tallies: ReplayTallies
    /// Users of failing runs kept for `--save`: (column, user, run).
    var kept: [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)] = []

    private var users: [ReplayUser] = []
    private var index: [String: Int] = [:]
    private var bad = Set<String>()
    /// `--grouped`: the FNV-1a 64 hashes of the users already finished, to tell a user whose
    /// rows come back (8 bytes a user).
    private var finished = Set<UInt64>()

    init(replayer: Replayer, decoder: TraceDecoder, shard: Shard?, grouped: Bool, maxErrors: Int, jobs: Int, saving: Bool) {
        self.replayer = replayer
        self.decoder = decoder
        self.shard = shard
        self.grouped = grouped
        self.maxErrors = maxErrors
        self.jobs = jobs
        self.saving = saving
        tallies = ReplayTallies(columns: replayer.columns.count, properties: replayer.catalog.expectations.count)
    }

    mutating func read(_ source: inout TraceSource, progress: ProgressLine?) throws(PopsimError) {
        var reader = TraceReader(file: decoder.file, layout: decoder.layout)
        try source.forEachChunk { chunk in
            reader.feed(chunk) { handle($0) }
            progress?.update("replay: \(rows) rows, \(index.count + finished.count) users")
            return errors.count <= maxErrors && stopped == nil
        }
        if errors.count <= maxErrors { reader.finish { handle($0) } }
        guard errors.count <= maxErrors else { return }
        flush(all: true)
    }

    private mutating func handle(_ result: Result<TraceRecord, LoadError>) {
        guard errors.count <= maxErrors else { return }
        let record: TraceRecord
        switch result {
        case .success(let r): record = r
        case .failure(let e):
            errors.append(e)
            return
        }
        rows += 1
        switch decoder.decode(record) {
        case .failure(let e):
            errors.append(e)
            if let user = record[.user], mine(user) { markBad(user) }
        case .success(let (user, entry)):
            if case .shown = entry.kind { sawShown = true }
            guard mine(user) else { return }
            add(user, entry)
        }
    }

    /// Whether `user` is this shard's: the FNV-1a 64 hash of its bytes modulo the shard count.
    func mine(_ user: String) -> Bool {
        guard let shard else { return true }
        return Self.hash(user) % UInt64(shard.count) == UInt64(shard.index)
    }

    static func hash(_ user: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in user.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    func comesBack(_ user: String, _ entry: TraceEntry) -> LoadError {
        LoadError(file: decoder.file, location: entry.location, path: .root,
                  problem: .expected("the rows of user \(JSONValue.quoted(user)) together (--grouped)",
                                     got: "another row of it after other users' (leave out --grouped)"))
    }

    private mutating func add(_ user: String, _ entry: TraceEntry) {
        if let i = index[user] {
            if grouped && i != users.count - 1 {
                errors.append(comesBack(user, entry))
                return
            }
            if let e = users[i].append(entry, file: decoder.file) {
                errors.append(e)
                markBad(user)
            }
            return
        }
        if grouped {
            if finished.contains(Self.hash(user)) {
                errors.append(comesBack(user, entry))
                return
            }
            flush(all: false)
        }
        index[user] = users.count
        var u = ReplayUser(id: user, firstRow: entry.row)
        _ = u.append(entry, file: decoder.file)
        users.append(u)
    }

    private mutating func markBad(_ user: String) {
        if bad.insert(user).inserted { skippedUsers += 1 }
    }

    /// Replays the users read so far: all of them at the end; with `--grouped`, every user but
    /// the last (whose rows may go on) once a batch is full.
    private mutating func flush(all: Bool) {
        if !all {
            guard grouped, users.count > ReplayCommand.batchSize else { return }
        }
        let last = all ? nil : users.popLast()
        var batch = users.filter { !bad.contains($0.id) }
        if grouped { for u in users where u.id != last?.id { finished.insert(Self.hash(u.id)) } }
        users = []
        index = [:]
        if let last {
            index[last.id] = 0
            users = [last]
        }
        while !batch.isEmpty {
            let part = Array(batch.prefix(ReplayCommand.batchSize * max(1, jobs)))
            batch.removeFirst(part.count)
            replay(part)
        }
    }

    private mutating func replay(_ batch: [ReplayUser]) {
        let workers = max(1, min(jobs, batch.count))
        let slots = Slots<(ReplayTallies, [(Int, ReplayTally.UserRef, Replayer.Run)])>(count: workers)
        let replayer = self.replayer, saving = self.saving
        let columns = replayer.columns.count, properties = replayer.catalog.expectations.count
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var t = ReplayTallies(columns: columns, properties: properties)
            var kept: [(Int, ReplayTally.UserRef, Replayer.Run)] = []
            for i in stride(from: w, to: batch.count, by: workers) {
                let user = batch[i]
                for (c, run) in replayer.replay(user, into: &t, keep: { _, _ in saving }) {
                    kept.append((c, ReplayTally.UserRef(row: user.firstRow, id: user.id), run))
                }
            }
            slots.set(w, (t, kept))
        }
        for w in 0..<workers {
            guard let (t, k) = slots.get(w) else { continue }
            tallies.merge(t)
            kept += k.map { (column: $0.0, user: $0.1, run: $0.2) }
        }
        // Keep only users still among the first named for a property they fail.
        kept.removeAll { k in
            !tallies.columns[k.column].failing.enumerated().contains { i, list in k.run.failed[i] && list.contains(k.user) }
        }
    }
}
