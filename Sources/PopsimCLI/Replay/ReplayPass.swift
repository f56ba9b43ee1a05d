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

    var stopped: PopsimError?
    var tallies: ReplayTallies
    /// Users of failing runs kept for `--save`: (column, user, run).
    var kept: [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)] = []

    init(replayer: Replayer, decoder: TraceDecoder, shard: Shard?, grouped: Bool, maxErrors: Int, jobs: Int, saving: Bool) {
        self.replayer = replayer
        self.maxErrors = maxErrors
        self.jobs = jobs
        self.saving = saving
        collector = TraceCollector(decoder: decoder, shard: shard.map { ($0.index, $0.count) }, grouped: grouped,
                                   batch: ReplayCommand.batchSize * max(1, jobs), maxErrors: maxErrors)
        tallies = ReplayTallies(columns: replayer.columns.count, properties: replayer.catalog.expectations.count)
    }

    var errors: [LoadError] { collector.errors }
    /// Errors printed: the first `maxErrors + 1` (the rest are counted).
    var shownErrors: Int { min(errors.count, maxErrors + 1) }
    var rows: Int { collector.rows }
    var skippedUsers: Int { collector.skippedUsers }
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
            return true
        }
        guard errors.count <= maxErrors else { return }
        reader.finish(into: &collector)
        guard errors.count <= maxErrors else { return }
        replay(collector.ready(all: true))
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
