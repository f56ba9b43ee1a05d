import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// One pass over a trace: rows read and gathered into users (`TraceCollector`), users replayed
/// in batches on `jobs` threads and added up.
///
/// Memory: with `grouped` (each user's rows together), one batch of users; without, every row
/// of this shard's users until the end (docs/replay.md says so).
struct ReplayPass {
    let replayer: Replayer
    let maxErrors: Int
    let jobs: Int
    let saving: Bool
    var collector: TraceCollector
    /// Rows kept in memory before a trace whose users are not together is partitioned to
    /// temporary files (`--partition-rows`).
    let partitionRows: Int
    let partitionCount: Int
    let environment: [String: String]
    private var partitions: TracePartitions?
    private var skippedLater = 0
    private var laterErrors: [LoadError] = []

    var stopped: PopsimError?
    var tallies: ReplayTallies
    /// Users of failing runs kept for `--save`: (column, user, run).
    var kept: [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)] = []

    init(replayer: Replayer, decoder: TraceDecoder, shard: Shard?, grouped: Bool, maxErrors: Int, jobs: Int, saving: Bool,
         partitionRows: Int, partitionCount: Int = 64, environment: [String: String]) {
        self.replayer = replayer
        self.partitionRows = partitionRows
        self.partitionCount = partitionCount
        self.environment = environment
        self.maxErrors = maxErrors
        self.jobs = jobs
        self.saving = saving
        collector = TraceCollector(decoder: decoder, shard: shard.map { ($0.index, $0.count) }, grouped: grouped,
                                   batch: ReplayCommand.batchSize * max(1, jobs), maxErrors: maxErrors)
        tallies = ReplayTallies(columns: replayer.columns.count, properties: replayer.catalog.expectations.count)
    }

    var errors: [LoadError] { collector.errors + laterErrors }
    /// Errors printed: the first `maxErrors + 1` (the rest are counted).
    var shownErrors: Int { min(errors.count, maxErrors + 1) }
    var rows: Int { collector.rows }
    var skippedUsers: Int { collector.skippedUsers + skippedLater }
    var sawShown: Bool { collector.sawShown }

    mutating func read(_ source: inout TraceSource, progress: ProgressLine?) throws(PopsimError) {
        var reader = TraceReader(file: collector.decoder.file, layout: collector.decoder.layout)
        let started = System.monotonicMs()
        try source.forEachChunk { chunk in
            reader.feed(chunk, into: &collector)
            if let progress {
                let ms = max(1, System.monotonicMs() - started)
                progress.update("replay: \(collector.rows) rows, \(collector.rows * 1000 / ms) rows/s")
            }
            guard errors.count <= maxErrors else { return false }
            replay(collector.ready(all: false))
            do throws(PopsimError) {
                try spill()
            } catch {
                stopped = error
                return false
            }
            return true
        }
        guard errors.count <= maxErrors, stopped == nil else { return }
        reader.finish(into: &collector)
        guard errors.count <= maxErrors else { return }
        guard let partitions else { return replay(collector.ready(all: true)) }
        defer { partitions.close() }
        try spill()
        for i in 0..<partitions.count {
            let bytes = try partitions.read(i)
            var part = TraceCollector(decoder: collector.decoder, shard: nil, grouped: false, maxErrors: maxErrors)
            let ok = bytes.withUnsafeBufferPointer { part.take(partition: $0, badUsers: collector.badUsers) }
            guard ok else { throw PopsimError.internalError("replay: a temporary partition does not read back") }
            laterErrors += part.errors
            skippedLater += part.skippedUsers
            guard errors.count <= maxErrors else { return }
            replay(part.ready(all: true))
        }
    }

    /// Past `partitionRows` rows held (users not together), the trace goes to temporary
    /// partitions; then each chunk's rows are written out.
    private mutating func spill() throws(PopsimError) {
        if partitions == nil, !collector.grouped, collector.heldRows > partitionRows {
            partitions = try TracePartitions(count: partitionCount, environment: environment)
            collector.partition(into: partitionCount)
        }
        guard let partitions, var outbox = collector.outbox else { return }
        collector.outbox = nil
        defer { collector.outbox = outbox }
        try partitions.write(&outbox)
    }

    private mutating func replay(_ users: [ReplayUser]) {
        var rest = users[...]
        while !rest.isEmpty {
            let part = Array(rest.prefix(ReplayCommand.batchSize * max(1, jobs)))
            rest = rest.dropFirst(part.count)
            replayBatch(part)
        }
    }

    private mutating func replayBatch(_ batch: [ReplayUser]) {
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
