import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// One replay of a trace: chunks read from the source and shown to every worker on its own
/// thread (each gathers and replays its share of the users, `ReplayWorker`), then added up.
/// With more than one worker a chunk is indexed (`SplitReading`) while the workers gather the
/// chunk before: one wait a chunk, not two (the chunk before stays mapped, `TraceSource`).
///
/// The memory plan (`SpillPlan`) says when a worker lets rows go: while the shard's rows have come
/// grouped by user (or `--grouped` says they do), each user is replayed as soon as another's row
/// comes; otherwise the worker's users go to temporary partitions. A trace that looked grouped and
/// is not after all is read again from its start, without that shortcut (a file; standard input
/// is never taken for grouped unless `--grouped` says so).
struct ReplayPass {
    struct Settings {
        var replayer: Replayer
        /// One per worker (`ReplayCommand.workerReplayers`): equal to `replayer`, sharing no storage.
        var workerReplayers: [Replayer]
        var layout: TraceLayout
        /// Whether the format is known; else the first bytes tell it.
        var formatKnown: Bool
        var catalog: Scenario
        var file: String
        var shard: Shard?
        var promisedGrouped: Bool
        var maxErrors: Int
        var workers: Int
        var saving: Bool
        /// With `--save`: where every disagreeing user goes.
        var disagreements: SavedDisagreements?
        var plan: SpillPlan
        var folder: String
        /// With `--pack`: where the one worker writes every user it replays.
        var pack: (any PackSink)? = nil
    }

    let settings: Settings
    private(set) var workers: [ReplayWorker] = []
    /// With more than one worker: the chunks' reading split among them.
    private var split: SplitReading?
    private(set) var stopped: PopsimError?
    private var streaming = false

    init(_ settings: Settings) {
        self.settings = settings
    }

    /// The most workers a replay runs (each reads every row).
    static let maxWorkers = 64

    // MARK: Results

    /// Every error found, in file order, at most one past `maxErrors`.
    var errors: [TraceError] {
        TraceError.inFileOrder(workers.flatMap { $0.gatherer.errors + $0.laterErrors }, cap: settings.maxErrors + 1)
    }

    var errorCount: Int { workers.reduce(0) { $0 + $1.errorCount } }
    var userErrors: Int { workers.reduce(0) { $0 + $1.gatherer.userErrors + $1.laterUserErrors } }
    var rows: Int { split == nil ? workers.first?.rowCount ?? 0 : gatheredRows }
    /// With a split reading: the rows of the batches gathered so far (the next chunk's may be
    /// indexed already).
    private var gatheredRows = 0
    /// The shard's rows, and those of the users replayed: the rest were left out with bad rows.
    var shardRows: Int { workers.reduce(0) { $0 + $1.gatherer.shardRows } }
    var replayedRows: Int { workers.reduce(0) { $0 + $1.replayedRows } }
    var skippedUsers: Int { workers.reduce(0) { $0 + $1.gatherer.skippedUsers + $1.laterSkipped } }
    var sawShown: Bool { workers.contains { $0.gatherer.sawShown } }
    var sawTrigger: Bool { workers.contains { $0.gatherer.sawTrigger } }
    /// Rows skipped as unmapped events, by event name, over every worker.
    var unmapped: UnmappedEvents { workers.reduce(into: UnmappedEvents()) { all, w in all.merge(w.gatherer.unmapped) } }
    var oversized: [(bytes: Int, user: String?)] { workers.flatMap(\.oversized) }

    var tallies: ReplayTallies {
        var t = settings.replayer.emptyTallies()
        for w in workers { t.merge(w.tallies) }
        t.completeGroups(settings.replayer.groups)
        return t
    }

    /// Users kept for `--save` (failing runs) still among the first named in `t`.
    func kept(in t: ReplayTallies) -> [(column: Int, user: ReplayTally.UserRef, run: Replayer.Run)] {
        workers.flatMap(\.kept).filter { t.columns[$0.column].names($0.user, for: $0.run) }
    }

    // MARK: Reading

    /// Reads the trace and replays its users; a trace that looked grouped and is not is read
    /// again (`reopen`).
    mutating func run(_ source: inout TraceSource, reopen: () throws(PopsimError) -> TraceSource,
                      progress: ProgressLine?) throws(PopsimError) {
        var speculate = !settings.promisedGrouped && source.canReadAgain
        while true {
            let again = try pass(&source, speculate: speculate, progress: progress)
            guard again else { return }
            source.close()
            source = try reopen()
            speculate = false
        }
    }

    /// One reading; true when it must be read again (it looked grouped, and is not).
    private mutating func pass(_ source: inout TraceSource, speculate: Bool, progress: ProgressLine?) throws(PopsimError) -> Bool {
        workers = []
        split = nil
        gatheredRows = 0
        settings.disagreements?.startOver()
        try settings.pack?.startOver()
        streaming = settings.promisedGrouped
        stopped = nil
        let started = System.monotonicMs()
        var restart = false
        var me = self
        let digest = source.digest
        // A chunk's rows indexed and settled, gathered while the next chunk is indexed.
        var pending: Pending?
        try source.forEachChunk({ (chunk) throws(PopsimError) -> Bool in
            if me.workers.isEmpty { me.start(chunk) }
            let shared = SharedBytes(bytes: chunk)
            if let split = me.split {
                let gathering = pending
                pending = nil
                me.indexAndGather(split.begin(chunk), of: split, gathering: gathering?.batch) { digest.add(shared.bytes) }
                if let gathering {
                    guard try me.gathered(rows: gathering.rows, progress, since: started, speculate: speculate, restart: &restart) else {
                        return false
                    }
                }
                let batch = split.settle()
                guard split.readsAlone else {
                    pending = Pending(batch: batch, rows: split.rows)
                    return true
                }
                me.readAll(batch, then: split)
            } else {
                me.each(.gather, besides: { digest.add(shared.bytes) }) { $0.read(shared.bytes) }
            }
            return try me.gathered(rows: nil, progress, since: started, speculate: speculate, restart: &restart)
        }, atEnd: { () throws(PopsimError) in
            // The last chunk's rows, while the chunk is still there.
            guard let last = pending else { return }
            pending = nil
            me.each(.gather) { $0.read(last.batch) }
            _ = try me.gathered(rows: last.rows, progress, since: started, speculate: speculate, restart: &restart)
        })
        self = me
        if restart { return true }
        if workers.isEmpty { start(UnsafeBufferPointer(start: nil, count: 0)) }
        guard errorCount <= settings.maxErrors, stopped == nil else { return false }
        if let split {
            split.finish()
            readAll(nil, then: split)
        } else {
            each(.gather) { $0.finishReading() }
        }
        guard errorCount <= settings.maxErrors else { return false }
        if streaming, speculate, workers.contains(where: { !$0.gatherer.groupedSoFar }) { return true }
        try replayEnd()
        if let failure = workers.compactMap(\.packFailure).first { throw failure }
        return false
    }

    /// A pack's blocks replayed (`TracePack`): each worker reads back the blocks it is given, as
    /// if they were its partitions; nothing is read or gathered.
    mutating func replayPacked(_ blocks: [any SpillStore], manifest: TracePack.Manifest) throws(PopsimError) {
        start(UnsafeBufferPointer(start: nil, count: 0), reading: false)
        for (worker, store) in zip(workers, blocks) { worker.readBack(store) }
        try replayEnd()
        // Each user once over all the blocks, as popsim writes them (its first row names it): a
        // forged pack listing a block twice replayed its users twice.
        var firstRows = workers.flatMap(\.packedFirstRows)
        firstRows.sort()
        if zip(firstRows, firstRows.dropFirst()).contains(where: { $0 == $1 }) {
            throw PopsimError.io(path: settings.file, reason: TracePackFile.damaged)
        }
        // The rows its users hold are rows the manifest counts, besides its bad and unmapped ones.
        if workers.reduce(0, { $0 &+ $1.packedRows }) &+ manifest.badRows &+ manifest.unmappedRows > manifest.rows {
            throw PopsimError.io(path: settings.file, reason: TracePackFile.damaged)
        }
    }

    /// Everything read: every worker replays what it holds, or reads its partitions back.
    private mutating func replayEnd() throws(PopsimError) {
        let maxErrors = settings.maxErrors
        let counts = workers.map(\.errorCount)
        let slots = Slots<PopsimError>(count: workers.count)
        let list = workers
        let started = ReplayStats.start()
        defer { ReplayStats.wall(.replay, since: started) }
        DispatchQueue.concurrentPerform(iterations: list.count) { w in
            let busy = ReplayStats.start()
            defer { ReplayStats.busy(.replay, since: busy) }
            let worker = list[w]
            do throws(PopsimError) {
                try worker.replayRest(maxErrors: maxErrors, othersErrors: counts.reduce(0, +) - counts[w])
            } catch {
                slots.set(w, error)
            }
            // Then the others' users, until every worker is done.
            for k in 1..<list.count { worker.help(list[(w + k) % list.count]) }
        }
        if let first = workers.indices.compactMap({ slots.get($0) }).first { throw first }
        if let failure = ReplayFailure.first(workers.compactMap(\.failure)) { stopped = .replay(failure) }
    }

    /// The workers, made on the first chunk: the format is told by it when neither the command
    /// line nor the file name says.
    private mutating func start(_ first: UnsafeBufferPointer<UInt8>, reading: Bool = true) {
        let s = settings
        var layout = s.layout
        if !s.formatKnown { layout.format = TraceFormats.sniffed(first) }
        let decoder = TraceRowDecoder(file: s.file, layout: layout, catalog: s.catalog)
        let folder = s.folder
        let make: @Sendable (Int) throws(PopsimError) -> any SpillStore = { (count) throws(PopsimError) -> any SpillStore in
            try TracePartitions(count: count, folder: folder)
        }
        var disagreement: (@Sendable (Int, ReplayTally.UserRef, Replayer.Run) -> Void)?
        if let saved = s.disagreements { disagreement = { c, u, r in saved.add(c, u, r) } }
        split = s.workers > 1 && reading ? SplitReading(reader: layout.format.makeReader(layout, file: s.file), ways: s.workers, shard: s.shard) : nil
        workers = (0..<s.workers).map { w in
            ReplayWorker(reader: layout.format.makeReader(layout, file: s.file),
                         gatherer: UserGatherer(decoder: decoder, worker: w, workers: s.workers, shard: s.shard,
                                                promisedGrouped: s.promisedGrouped, maxErrors: s.maxErrors, arrangeBytes: s.plan.arrangeBytes),
                         replayer: s.workerReplayers[w], plan: s.plan, saving: s.saving,
                         disagreement: disagreement, makeStore: make)
        }
        if let pack = s.pack { workers.first?.packing(into: pack) }
    }

    /// A chunk's batch waiting to be gathered, and the rows handed out once it is.
    private struct Pending {
        let batch: [IndexedRows.Part]
        let rows: Int
    }

    /// A chunk's rows gathered (`rows`: the rows handed out once they are, when `readAll` has not
    /// counted them): the progress drawn, then `afterGathering`.
    private mutating func gathered(rows: Int?, _ progress: ProgressLine?, since started: Int, speculate: Bool,
                                   restart: inout Bool) throws(PopsimError) -> Bool {
        if let rows { gatheredRows = rows }
        self.progress(progress, since: started)
        return try afterGathering(speculate: speculate, restart: &restart)
    }

    /// After a chunk's rows are gathered: whether reading goes on (what `forEachChunk`'s body
    /// returns). It stops on too many errors, a record that never ends, a trace that looked
    /// grouped and is not (`restart`), or a replay that failed; else the memory plan is followed
    /// (`release`).
    private mutating func afterGathering(speculate: Bool, restart: inout Bool) throws(PopsimError) -> Bool {
        guard errorCount <= settings.maxErrors, !workers.contains(where: { $0.gatherer.stopsReading }) else { return false }
        if streaming, speculate, workers.contains(where: { !$0.gatherer.groupedSoFar }) {
            restart = true
            return false
        }
        try release(speculate: speculate)
        // Too many users done to remember which they were: read it again, spilling instead.
        if streaming, speculate, workers.contains(where: { settings.plan.mustRelease($0.gatherer.heldBytes) }) {
            restart = true
            return false
        }
        return stopped == nil
    }

    private func progress(_ progress: ProgressLine?, since started: Int) {
        guard let progress else { return }
        let ms = max(1, System.monotonicMs() - started), rows = self.rows
        progress.update("replay: \(rows) rows, \(workers.reduce(0) { $0 + $1.gatherer.userCount }) users, \(rows * 1000 / ms) rows/s")
    }

    /// Indexes a chunk's `pieces` and, at once, every worker gathers `batch` (the chunk before's)
    /// and `besides` runs (the digest): one wait a chunk, not two. The gathering goes first (the
    /// longer tasks), the indexing fills in beside it.
    private func indexAndGather(_ pieces: Int, of split: SplitReading, gathering batch: [IndexedRows.Part]?,
                                besides: @escaping @Sendable () -> Void) {
        let list = workers
        let gathering = batch == nil ? 0 : list.count
        let started = ReplayStats.start()
        defer { ReplayStats.wall(gathering > 0 ? .gather : .index, since: started) }
        DispatchQueue.concurrentPerform(iterations: gathering + pieces + 1) { i in
            let busy = ReplayStats.start()
            if i < gathering, let batch {
                list[i].read(batch)
                ReplayStats.busy(.gather, since: busy)
            } else if i < gathering + pieces {
                split.index(i - gathering)
                ReplayStats.busy(.index, since: busy)
            } else {
                besides()
            }
        }
    }

    /// Every worker reads `batch`, then every batch the split reading has besides; their rows
    /// count as gathered.
    private mutating func readAll(_ batch: [IndexedRows.Part]?, then split: SplitReading) {
        var next = batch ?? split.more()
        while let batch = next {
            each(.gather) { $0.read(batch) }
            next = split.more()
        }
        gatheredRows = split.rows
    }

    /// Runs `body` on every worker, each on a thread of its own, and `besides` beside them; the
    /// time it takes and each worker's busy time count in `phase` (`ReplayStats`).
    private func each(_ phase: ReplayStats.Phase, besides: (@Sendable () -> Void)? = nil, _ body: @Sendable (ReplayWorker) -> Void) {
        let list = workers
        let started = ReplayStats.start()
        defer { ReplayStats.wall(phase, since: started) }
        @Sendable func timed(_ i: Int) {
            let busy = ReplayStats.start()
            body(list[i])
            ReplayStats.busy(phase, since: busy)
        }
        if list.count == 1 && besides == nil { return timed(0) }
        DispatchQueue.concurrentPerform(iterations: list.count + (besides == nil ? 0 : 1)) { i in
            if i < list.count { timed(i) } else { besides?() }
        }
    }

    /// After a chunk, what the plan says of memory: a worker holding more than it may replays the
    /// users that are done (the rows come grouped by user so far) or spills; a spilling worker
    /// writes its outboxes out when they are full.
    private mutating func release(speculate: Bool) throws(PopsimError) {
        let plan = settings.plan
        if !streaming, speculate, workers.contains(where: { plan.mustRelease($0.gatherer.heldBytes) }),
           workers.allSatisfy({ $0.gatherer.groupedSoFar && !$0.isSpilling }) {
            streaming = true
        }
        if streaming {
            each(.release) { $0.replayHeld() }
            if let failure = ReplayFailure.first(workers.compactMap(\.failure)) { stopped = .replay(failure) }
            return
        }
        let started = ReplayStats.start()
        defer { ReplayStats.wall(.release, since: started) }
        for worker in workers where worker.isSpilling || plan.mustRelease(worker.gatherer.heldBytes) {
            let busy = ReplayStats.start()
            defer { ReplayStats.busy(.release, since: busy) }
            try worker.beginSpilling()
            try worker.flush(force: false)
        }
    }
}

/// A chunk every worker reads at once. `@unchecked Sendable`, audited: the bytes are only read,
/// and the reader's buffer holding them is not reused until every worker returned (`each` waits).
struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}
