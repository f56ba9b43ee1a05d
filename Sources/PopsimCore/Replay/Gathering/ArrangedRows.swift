/// The rows a gatherer holds, arranged by user for a range of users at a time: what hands a
/// user's rows out in one piece.
///
/// Rows are held in the order they came (`HeldRow`, each naming its user): taking one costs no
/// write anywhere else, where a chain through each user's last row cost a cache miss a row, and
/// walking the chains another (issue 39: the two were 16 % of a replay). Arranging reads the
/// held rows in order and copies those of the range's users to their places: a pass over memory
/// in order, its writes independent of each other.
///
/// Contract: a range holds consecutive users (by index) whose rows fit `limit` bytes (at least
/// one user), so the memory it adds to what is held is at most `limit` or one user's rows; a
/// range is arranged again when rows came since.
final class ArrangedRows {
    let limit: Int
    private var rows: UnsafeMutablePointer<TimedEntry>?
    private var capacity = 0
    /// The users arranged, `first..<end`, and where each one's rows start (`starts[i - first]`,
    /// with the end after the last).
    private var first = 0, end = 0
    private var starts: [Int] = [0]
    /// The held rows when it was arranged (-1: never).
    private var heldCount = -1

    init(limit: Int) { self.limit = max(1, limit) }

    deinit { rows?.deallocate() }

    /// Bytes it holds.
    var byteCount: Int { capacity * MemoryLayout<TimedEntry>.stride + starts.capacity * 8 }

    /// User `i`'s rows, arranged first if they are not (`users`, `held`: the gatherer's).
    func rows(of i: Int, users: UserTable, held: Paged<HeldRow>) -> UnsafeBufferPointer<TimedEntry> {
        guard i >= 0, i < users.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        if heldCount != held.count || i < first || i >= end { arrange(from: i, users: users, held: held) }
        let k = i - first
        return UnsafeBufferPointer(start: rows.map { $0 + starts[k] }, count: starts[k + 1] - starts[k])
    }

    /// Arranges the range that starts at user `i` (unless it holds `i` already) and returns where
    /// it ends: users `i..<end` are then handed out by `rows(of:)` without arranging anything, so
    /// that several threads may read them at once.
    func arrangeRange(from i: Int, users: UserTable, held: Paged<HeldRow>) -> Int {
        guard i >= 0, i < users.count else { return i }
        if heldCount != held.count || i < first || i >= end { arrange(from: i, users: users, held: held) }
        return end
    }

    /// Lets go of its memory (the gatherer let its rows go).
    func removeAll() {
        rows?.deallocate()
        rows = nil
        capacity = 0
        first = 0
        end = 0
        starts = [0]
        heldCount = -1
    }

    /// Arranges users `i`, `i + 1`, … while their rows fit `limit`.
    private func arrange(from i: Int, users: UserTable, held: Paged<HeldRow>) {
        let perRow = MemoryLayout<TimedEntry>.stride
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        var total = 0, j = i
        while j < users.count {
            let n = Int(users.entry(j).pointee.rows)
            if j > i, (total + n) * perRow > limit { break }
            total += n
            starts.append(total)
            j += 1
        }
        first = i
        end = j
        heldCount = held.count
        if total > capacity {
            // Exactly what the range needs: room to spare would be memory held for nothing when
            // one range takes every user (it cost 7 MiB of 29 at 10,000 users).
            rows?.deallocate()
            capacity = total
            rows = .allocate(capacity: capacity)
        }
        guard let rows, total > 0 else { return }
        var cursor = starts
        let lo = UInt32(truncatingIfNeeded: i), span = j - i
        cursor.withUnsafeMutableBufferPointer { cursor in
            held.forEachPage { page in
                for r in page {
                    // One comparison for both ends: users below `lo` wrap to large numbers.
                    let k = Int(r.user &- lo)
                    guard k < span else { continue }
                    (rows + cursor[k]).initialize(to: TimedEntry(time: r.time, entry: r.entry))
                    cursor[k] += 1
                }
            }
        }
    }
}

/// A row a gatherer holds, in the order they came: its time, what it says, and its user's index.
struct HeldRow: BitwiseCopyable {
    var time: Int
    var entry: PackedEntry
    var user: UInt32
}
