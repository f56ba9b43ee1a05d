/// A trace's reading split among the workers: each chunk is cut at line breaks into one piece a
/// worker, each piece read by a reader of its own at once (`index`), and then every worker reads
/// its own rows of every piece from the indexes (`IndexedRows`), in trace order. Before, every
/// worker read every byte: on 2 cores, reading took as long with `--jobs 2` as with `--jobs 1`.
/// The indexes route each row to its worker (`RowIndex`); `settle` and `more` carry the worker of
/// the shard's last row from piece to piece, for the flag of each piece's first row of the shard.
///
/// A piece after the first is read as if a record starts there: `settle` checks that the piece
/// before it ended between records, and when it did not (CSV: a quoted field holds the line
/// break) reads the rest of the chunk again with the reader that came up short, one batch at a
/// time (`more`). So the rows, numbers, lines and problems are those of one reader reading it
/// all, whatever the cuts; a test compares them.
///
/// Two sets of pieces, used in turn: a chunk's batch stays good while the next chunk is begun and
/// indexed, so that the workers can gather one chunk while the next is indexed (`ReplayPass`).
///
/// Memory: a piece's index holds at most `2 * rowsPerChunk / ways` rows (about 40 bytes each,
/// `indexBytes` in all, both sets and the chunk kept); a piece with more is read on in batches
/// that size, as a piece cut wrong.
///
/// `@unchecked Sendable`, audited: `index(w)` touches only piece `w` of the set begun last (its
/// own object), and runs only between `begin` and `settle`, which the caller runs alone; the
/// batch the other set holds is only read meanwhile. The rest is one thread's.
public final class SplitReading: @unchecked Sendable {
    /// One piece of the chunk: its bytes, its reader and what the reader found.
    final class Piece {
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var reader: (any TraceRowReader)?
        let index: RowIndex
        init(_ index: RowIndex) { self.index = index }
        /// Whether its reader had no more rows (false: it stopped at the index's limit).
        var exhausted = false
    }

    /// A reader that goes on alone: the bytes still to feed it, whether it has rows left in
    /// what it was fed, and the rows and lines before its own.
    private struct Alone {
        var reader: any TraceRowReader
        var queue: [UnsafeBufferPointer<UInt8>]
        var pending: Bool
        var rows: Int
        var lines: Int
    }

    public let ways: Int
    /// The reader that goes on from chunk to chunk (it holds what a chunk's end cut).
    private var lead: (any TraceRowReader)?
    /// The two sets of pieces, and the one begun last.
    private let sets: [[Piece]]
    private var turn = 0
    private var pieces: [Piece] { sets[turn] }
    private var count = 0
    private var alone: Alone?
    private let spare: RowIndex
    /// The worker of the shard's last row handed out (-1: none yet).
    private var lastInShardWorker = -1
    /// What finishes a row from its record (`DeferringRowReader`), once the lead has one.
    private var completer: RowCompleter?
    /// Rows handed out in all.
    public private(set) var rows = 0

    /// Rows a chunk's indexes hold (a chunk of 16-byte rows), and the memory that takes at most:
    /// two sets of indexes, and the chunk before kept mapped (`TraceSource`).
    public static let rowsPerChunk = SpillPlan.chunk / 16
    public static let indexBytes = 2 * (2 * rowsPerChunk * 100 + 2 * SpillPlan.chunk) + SpillPlan.chunk

    /// Rows a piece's index holds at most.
    private let limit: Int

    /// `ways`: the workers (one piece each); `shard`: whose users' order the workers follow.
    /// `rowsPerPiece`: tests lower it to reach the batches of a piece with more rows.
    public init(reader: any TraceRowReader, ways: Int, shard: Shard? = nil, rowsPerPiece: Int? = nil) {
        lead = reader
        let ways = max(1, ways)
        self.ways = ways
        sets = (0..<2).map { _ in (0..<ways).map { _ in Piece(RowIndex(workers: ways, shard: shard)) } }
        spare = RowIndex(workers: ways, shard: shard)
        limit = max(1, rowsPerPiece ?? max(1024, 2 * Self.rowsPerChunk / self.ways))
    }

    /// Cuts `chunk` into pieces (one while the lead cannot resume: before the header), each with
    /// its reader, in the set the batch settled last does not use; then `index` each, at once,
    /// and `settle`.
    public func begin(_ chunk: UnsafeBufferPointer<UInt8>) -> Int {
        guard let lead else { return 0 }
        self.lead = nil
        turn = 1 - turn
        // The second piece's reader, made first: nil when the lead cannot resume yet.
        var second = ways > 1 && chunk.count < 1 << 30 ? lead.resumed() : nil
        let cuts = second == nil ? [chunk.count] : Self.cuts(chunk, ways: ways)
        var start = 0
        count = 0
        for end in cuts where end > start || count == 0 {
            let p = pieces[count]
            p.bytes = UnsafeBufferPointer(rebasing: chunk[start..<end])
            if count == 0 {
                p.reader = lead
            } else {
                p.reader = second ?? lead.resumed()
                second = nil
            }
            p.index.reset(chunk: chunk)
            count += 1
            start = end
        }
        return count
    }

    /// Where the pieces end: after the first line break at or past each `ways`-th of the chunk.
    static func cuts(_ chunk: UnsafeBufferPointer<UInt8>, ways: Int) -> [Int] {
        var cuts: [Int] = []
        var at = 0
        for k in 1..<ways {
            let target = max(at, chunk.count / ways * k)
            let end = chunk[target...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? chunk.count
            cuts.append(end)
            at = end
        }
        cuts.append(chunk.count)
        return cuts
    }

    /// Reads piece `w` into its index (on a thread of its own).
    public func index(_ w: Int) {
        guard w < count, var r = pieces[w].reader else { return }
        let p = pieces[w]
        p.reader = nil
        r.feed(p.bytes)
        p.exhausted = p.index.fill(from: &r, limit: limit)
        p.reader = r
    }

    /// The pieces read right, in order, for every worker to read; what is left (a piece that
    /// ended inside a record, or had more rows than its index holds) is read on by `more`.
    public func settle() -> [IndexedRows.Part] {
        var batch: [IndexedRows.Part] = []
        var rowsBefore = 0, linesBefore = 0
        if completer == nil { completer = (pieces[0].reader as? any DeferringRowReader)?.completer }
        for w in 0..<count {
            let p = pieces[w]
            guard let r = p.reader else { break }
            p.reader = nil
            batch.append(IndexedRows.Part(index: p.index, rows: rowsBefore, lines: linesBefore, completer: completer))
            let last = w == count - 1
            if !p.exhausted || (!last && !r.isBetweenRecords) {
                alone = Alone(reader: r, queue: pieces[(w + 1)..<count].map(\.bytes), pending: !p.exhausted,
                              rows: rowsBefore, lines: linesBefore)
                for q in pieces[(w + 1)..<count] { q.reader = nil }
                break
            }
            if last {
                var lead = r
                lead.advance(rows: rowsBefore, lines: linesBefore)
                self.lead = lead
                rows = lead.rowCount
            }
            rowsBefore += r.rowCount
            linesBefore += r.linesRead
        }
        note(batch)
        return batch
    }

    /// Whether `settle` left the rest of the chunk to one reader (`more`).
    public var readsAlone: Bool { alone != nil }

    /// The next batch read by one reader alone (the rest of a chunk `settle` could not take, or
    /// the trace's end after `finish`); nil when there is none.
    public func more() -> [IndexedRows.Part]? {
        guard var a = alone else { return nil }
        spare.reset(chunk: pieces[0].index.contents.chunk)
        while !a.pending {
            guard !a.queue.isEmpty else {
                a.reader.advance(rows: a.rows, lines: a.lines)
                lead = a.reader
                rows = a.reader.rowCount
                alone = nil
                return nil
            }
            a.reader.feed(a.queue.removeFirst())
            a.pending = true
        }
        a.pending = !spare.fill(from: &a.reader, limit: limit)
        if completer == nil { completer = (a.reader as? any DeferringRowReader)?.completer }
        alone = a
        let batch = [IndexedRows.Part(index: spare, rows: a.rows, lines: a.lines, completer: completer)]
        note(batch)
        return batch
    }

    /// The end of the trace: what the lead holds is read by `more`.
    public func finish() {
        guard var lead else { return }
        self.lead = nil
        lead.finish()
        for set in sets { for p in set { p.index.reset(chunk: UnsafeBufferPointer(start: nil, count: 0)) } }
        alone = Alone(reader: lead, queue: [], pending: true, rows: 0, lines: 0)
    }

    /// The rows handed out so far: the last row of a batch. Each part's first row of the shard
    /// learns whether another worker's user's row of the shard came last before it.
    private func note(_ batch: [IndexedRows.Part]) {
        for part in batch {
            part.index.setForeignBefore(last: lastInShardWorker)
            let last = part.index.contents.lastInShardWorker
            if last >= 0 { lastInShardWorker = last }
        }
        for part in batch.reversed() {
            let rows = part.index.contents.rows
            if rows.count > 0, let r = rows.base?[rows.count - 1] {
                self.rows = part.rows + Int(r.row)
                return
            }
        }
    }
}
