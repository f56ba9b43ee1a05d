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
    private var laterUserErrors = 0
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
                                   batch: ReplayCommand.batchSize, maxErrors: maxErrors)
        tallies = ReplayTallies(columns: replayer.columns.count, properties: replayer.catalog.expectations.count)
    }

    /// Every error found, in file order, at most one past `maxErrors` (what one reader going
    /// through the file would have stopped at; a partition's time errors come among the rest).
    var errors: [LoadError] { TraceCollector.inFileOrder(collector.errors + laterErrors, cap: maxErrors + 1) }
    var userErrors: Int { collector.userErrors + laterUserErrors }
    /// Errors printed: the first `maxErrors + 1` (the rest are counted).
    var shownErrors: Int { min(errors.count, maxErrors + 1) }
    var rows: Int { collector.rows }
    var skippedUsers: Int { collector.skippedUsers + skippedLater }
    var sawShown: Bool { collector.sawShown }

    mutating func read(_ source: inout TraceSource, progress: ProgressLine?) throws(PopsimError) {
        var reader = TraceReader(file: collector.decoder.file, layout: collector.decoder.layout)
        let started = System.monotonicMs()
        let split = secondHalf(source)
        // Rows go to partitions (past `partitionRows`) except while a second reader may be kept.
        var splitting = split != nil
        var readerCopy = reader
        func chunkBody(_ pass: inout ReplayPass, _ reader: inout TraceReader, _ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
            reader.feed(chunk, into: &pass.collector)
            if let progress {
                let ms = max(1, System.monotonicMs() - started)
                progress.update("replay: \(pass.collector.rows) rows, \(pass.collector.userCount) users, \(pass.collector.rows * 1000 / ms) rows/s")
            }
            guard pass.errors.count <= pass.maxErrors else { return false }
            pass.replay(pass.collector.ready(all: false))
            guard pass.stopped == nil else { return false }
            guard !splitting else { return true }
            do throws(PopsimError) {
                try pass.spill()
            } catch {
                pass.stopped = error
                return false
            }
            return true
        }
        var pass = self
        try source.forEachChunk(limit: split?.offset ?? .max) { chunkBody(&pass, &readerCopy, $0) }
        reader = readerCopy
        self = pass
        var finished = false
        if let split {
            let outcome = split.task.join()
            // The second reader's rows count only if this one stopped exactly where it began.
            if errors.count <= maxErrors, stopped == nil {
                if reader.isAtBoundary, reader.hasHeader, case .success(let (other, rest))? = outcome {
                    collector.absorb(other, rows: reader.rowCount, lines: reader.nextLine - 2)
                    source.combine(rest)
                    finished = true
                } else {
                    splitting = false
                    try source.forEachChunk { chunkBody(&pass, &readerCopy, $0) }
                    reader = readerCopy
                    self = pass
                }
            }
        }
        guard errors.count <= maxErrors, stopped == nil else { return }
        if !finished { reader.finish(into: &collector) }
        guard errors.count <= maxErrors else { return }
        try spill()
        guard let partitions else {
            let users = collector.ready(all: true)
            replay(users)
            return
        }
        defer { partitions.close() }
        try replayPartitions(partitions, level: 1)
    }

    /// Each partition's users, read back and replayed. A partition too big for `partitionRows`
    /// (about 64 bytes a row encoded) is partitioned again by the next digits of its users'
    /// hashes, up to three levels (64³ parts): memory stays about that of `partitionRows` rows,
    /// or of the largest single user.
    private mutating func replayPartitions(_ partitions: TracePartitions, level: Int) throws(PopsimError) {
        for i in 0..<partitions.count {
            let bytes = try partitions.read(i)
            if level < 3, bytes.count / 64 > max(partitionRows, 1) {
                let sub = try TracePartitions(count: partitionCount, environment: environment)
                defer { sub.close() }
                try split(bytes, into: sub, level: level)
                try replayPartitions(sub, level: level + 1)
                guard errors.count <= maxErrors, stopped == nil else { return }
                continue
            }
            var part = TraceCollector(decoder: collector.decoder, shard: nil, grouped: false, maxErrors: maxErrors)
            let ok = bytes.withUnsafeBufferPointer { part.take(partition: $0, badUsers: collector.badUsers) }
            guard ok else { throw PopsimError.internalError("replay: a temporary partition does not read back") }
            laterErrors += part.errors
            laterUserErrors += part.userErrors
            skippedLater += part.skippedUsers
            guard errors.count <= maxErrors else { return }
            replay(part.ready(all: true))
            guard stopped == nil else { return }
        }
    }

    /// A partition's rows into `sub` by the `level`-th base-64 digit of their users' hashes (the
    /// first chose the partition), in order.
    private func split(_ bytes: [UInt8], into sub: TracePartitions, level: Int) throws(PopsimError) {
        var outbox = [[UInt8]](repeating: [], count: sub.count)
        var divisor: UInt64 = 1
        for _ in 0..<level { divisor *= UInt64(sub.count) }
        var pending = 0
        var failure: PopsimError?
        let ok = bytes.withUnsafeBufferPointer { all in
            TraceEntryCodec.decode(all) { user, entry in
                let k = Int((TraceCollector.hash(user) / divisor) % UInt64(sub.count))
                let before = outbox[k].count
                TraceEntryCodec.encode(user: user, entry, into: &outbox[k])
                pending += outbox[k].count - before
                if pending > 64 << 20, failure == nil {
                    do throws(PopsimError) { try sub.write(&outbox) } catch { failure = error }
                    pending = 0
                }
            }
        }
        if let failure { throw failure }
        guard ok else { throw PopsimError.internalError("replay: a temporary partition does not read back") }
        try sub.write(&outbox)
    }

    /// A second reader for the second half of a big CSV file (on another core), when there is a
    /// core for it and the rows will stay in memory: from the first line start past the middle,
    /// the header fed first. Its rows are kept only if the first reader, at that byte, is between
    /// two records (a quoted field may hold a line break); else the first reader goes on alone.
    private func secondHalf(_ source: TraceSource) -> (offset: Int, task: SideTask<Result<(TraceCollector, TraceSource), PopsimError>>)? {
        guard jobs >= 2, !collector.grouped, collector.decoder.layout.format == .csv, let size = source.regularSize,
              size >= 1 << 20, size / 32 <= partitionRows else { return nil }
        let path = source.path
        guard var head = try? TraceSource(path), var middle = try? TraceSource(path, offset: size / 2) else { return nil }
        defer { head.close(); middle.close() }
        var header: [UInt8] = [], window: [UInt8] = []
        try? head.forEachChunk(limit: 1 << 16) { header += $0; return false }
        try? middle.forEachChunk(limit: 1 << 16) { window += $0; return false }
        // The first line must be the header the first reader reads (not blank, no quote).
        guard let end = header.firstIndex(of: UInt8(ascii: "\n")), !header[..<end].contains(UInt8(ascii: "\"")),
              header[..<end].contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }),
              let newline = window.firstIndex(of: UInt8(ascii: "\n")), size / 2 + newline + 1 < size else { return nil }
        let offset = size / 2 + newline + 1
        let headerLine = Array(header[...end])
        let decoder = collector.decoder, shard = collector.shard, maxErrors = self.maxErrors
        let task = SideTask { () -> Result<(TraceCollector, TraceSource), PopsimError> in
            var other = TraceCollector(decoder: decoder, shard: shard, grouped: false, maxErrors: maxErrors)
            var reader = TraceReader(file: decoder.file, layout: decoder.layout)
            headerLine.withUnsafeBufferPointer { reader.feed($0, into: &other) }
            do throws(PopsimError) {
                var rest = try TraceSource(path, offset: offset)
                defer { rest.close() }
                try rest.forEachChunk { chunk in
                    reader.feed(chunk, into: &other)
                    return !other.isStopped
                }
                if !other.isStopped { reader.finish(into: &other) }
                return .success((other, rest))
            } catch {
                return .failure(error)
            }
        }
        return (offset, task)
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
        guard stopped == nil else { return }
        let workers = max(1, min(jobs, batch.count))
        typealias Part = (ReplayTallies, [(Int, ReplayTally.UserRef, Replayer.Run)], [(column: Int, failure: ReplayFailure)])
        let slots = Slots<Part>(count: workers)
        let replayer = self.replayer, saving = self.saving
        let columns = replayer.columns.count, properties = replayer.catalog.expectations.count
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var t = ReplayTallies(columns: columns, properties: properties)
            var kept: [(Int, ReplayTally.UserRef, Replayer.Run)] = []
            var failures: [(column: Int, failure: ReplayFailure)] = []
            for i in stride(from: w, to: batch.count, by: workers) {
                let user = batch[i]
                do throws(ReplayFailure) {
                    for (c, run) in try replayer.replay(user, into: &t, keep: { _, _ in saving }) {
                        kept.append((c, ReplayTally.UserRef(row: user.firstRow, id: user.id), run))
                    }
                } catch {
                    failures.append((replayer.columns.firstIndex { $0.label == error.column } ?? 0, error))
                }
            }
            slots.set(w, (t, kept, failures))
        }
        var failures: [(column: Int, failure: ReplayFailure)] = []
        for w in 0..<workers {
            guard let (t, k, f) = slots.get(w) else { continue }
            tallies.merge(t)
            kept += k.map { (column: $0.0, user: $0.1, run: $0.2) }
            failures += f
        }
        if let first = ReplayFailure.first(failures) {
            stopped = .replay(first)
            return
        }
        // Keep only users still among the first named for a property they fail.
        kept.removeAll { k in
            !tallies.columns[k.column].failing.enumerated().contains { i, list in k.run.failed[i] && list.contains(k.user) }
        }
    }
}
