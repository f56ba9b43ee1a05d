/// Gathers a trace's decoded rows into users: the rows of this shard's users, each user's in
/// order, with every bad row reported (located) and its user left out.
///
/// Two ways in, one result: `take(_ record:)` decodes a record of Strings (any row, and the
/// one that words every error); `take(fast:)` decodes a plain CSV row from its bytes (names
/// looked up by bytes, no String but the user's first and a value's) and declines anything
/// that is not plainly valid, for the first way to report.
///
/// Contract: the users come out (`ready`) in order of their first row; with `grouped`, a user
/// is complete when another user's row comes, and a user whose rows come back is an error.
public struct TraceCollector: Sendable {
    public let decoder: TraceDecoder
    public let shard: (index: Int, count: Int)?
    public let grouped: Bool
    /// Users kept together before `ready` hands them out (with `grouped`).
    public let batch: Int

    public private(set) var rows = 0
    public private(set) var errors: [LoadError] = []
    public private(set) var skippedUsers = 0
    /// Errors about a user's rows together (a time going back, rows that come back with
    /// `grouped`): found only for this shard's users, so shards add them up (the others, about a
    /// row alone, every shard finds).
    public private(set) var userErrors = 0
    /// Whether any row (of any shard) is a `shown`: then production is a column.
    public private(set) var sawShown = false

    private var users: [ReplayUser] = []
    private var bad: [Bool] = []
    private var table = NameTable()
    /// With `grouped`: FNV-1a 64 of the users already handed out (8 bytes a user).
    private var finished = Set<UInt64>()
    private let fast: FastTraceDecoder
    /// Partitioned: each row of this shard encoded into the outbox of its user's partition
    /// (FNV-1a 64 modulo their count) instead of being kept; users with a bad row, by hash.
    public var outbox: [[UInt8]]?
    public private(set) var badUsers = Set<UInt64>()
    /// Users seen so far (held, or handed out with `grouped`); partitioned rows' users are not counted.
    public var userCount: Int { users.count + finished.count }
    /// Rows kept in memory (not partitioned).
    public private(set) var heldRows = 0

    /// Bad rows allowed: past them, every row is ignored (the caller stops reading).
    public let maxErrors: Int
    public var isStopped: Bool { errors.count > maxErrors }

    public init(decoder: TraceDecoder, shard: (index: Int, count: Int)?, grouped: Bool, batch: Int = 4096, maxErrors: Int = 0) {
        self.decoder = decoder
        self.maxErrors = maxErrors
        self.shard = shard
        self.grouped = grouped
        self.batch = batch
        fast = FastTraceDecoder(decoder)
    }

    public mutating func take(error: LoadError) {
        errors.append(error)
    }

    /// A row split into Strings: decoded, or its error reported.
    public mutating func take(_ record: TraceRecord) {
        rows += 1
        switch decoder.decode(record) {
        case .failure(let e):
            errors.append(e)
            if var user = record[.user] {
                user.withUTF8 { u in
                    // A user already handed out (`grouped`) was replayed: no second entry for it.
                    guard mine(u), !(grouped && finished.contains(Self.hash(u)) && table.lookup(u) == nil) else { return }
                    if outbox != nil {
                        if badUsers.insert(Self.hash(u)).inserted { skippedUsers += 1 }
                        return
                    }
                    if let i = table.lookup(u) { return markBad(Int(i)) }
                    // A user whose first row is bad: kept out, with every row of it after.
                    table.insert(u, id: Int32(users.count))
                    users.append(ReplayUser(id: String(decoding: u, as: UTF8.self), firstRow: record.row))
                    bad.append(false)
                    markBad(users.count - 1)
                }
            }
        case .success(let (user, entry)):
            var user = user
            user.withUTF8 { add($0, entry) }
        }
    }

    /// A plain CSV row as byte ranges of `line`; false (nothing taken) when it is not plainly
    /// valid, for `take(_ record:)` to decode and report.
    public mutating func take(fast fields: TraceFields) -> Bool {
        guard let (user, entry) = fast.decode(fields) else { return false }
        rows += 1
        add(user, entry)
        return true
    }

    /// Users complete: with `all` (the end of the trace), every one; else, with `grouped` and a
    /// full batch, all but the last (whose rows may go on); else none.
    public mutating func ready(all: Bool) -> [ReplayUser] {
        guard all || (grouped && users.count > batch) else { return [] }
        let last = all ? nil : users.popLast()
        let lastBad = all ? false : bad.popLast() ?? false
        var out: [ReplayUser] = []
        out.reserveCapacity(users.count)
        for (u, isBad) in zip(users, bad) {
            if grouped { finished.insert(Self.hash(u.id)) }
            if !isBad { out.append(u) }
        }
        users = []
        bad = []
        table = NameTable()
        heldRows = 0
        if let last {
            table.insert(last.id, id: 0)
            users = [last]
            bad = [lastBad]
        }
        return out
    }

    /// Moves every user held into the outbox (their rows encoded) and keeps partitioning from
    /// now on: `partitions` outboxes.
    public mutating func partition(into partitions: Int) {
        var boxes = [[UInt8]](repeating: [], count: max(1, partitions))
        for (u, isBad) in zip(users, bad) {
            var id = u.id
            id.withUTF8 { bytes in
                let h = Self.hash(bytes)
                if isBad { badUsers.insert(h) }
                for e in u.entries { TraceEntryCodec.encode(user: bytes, e, into: &boxes[Int(h % UInt64(boxes.count))]) }
            }
        }
        users = []
        bad = []
        table = NameTable()
        heldRows = 0
        outbox = boxes
    }

    /// Takes in what a second reader collected from the rest of the trace (`other`, read from a
    /// record boundary with the header fed first): its rows come after this one's `rows` rows and
    /// its lines after line `lines` + 1. Users in both get the other's rows after theirs (a time
    /// going back across the boundary is the same error as anywhere); errors keep file order.
    public mutating func absorb(_ other: consuming TraceCollector, rows rowOffset: Int, lines lineOffset: Int) {
        func shifted(_ e: TraceEntry) -> TraceEntry {
            var e = e
            e.row += rowOffset
            e.location.line += lineOffset
            return e
        }
        for var error in other.errors {
            if let l = error.location { error.location = SourceLocation(line: l.line + lineOffset, column: l.column) }
            errors.append(error)
        }
        rows += other.rows
        sawShown = sawShown || other.sawShown
        var list = other.users
        other.users = []
        for (k, otherBad) in other.bad.enumerated() {
            // Taken out of the list, so that the shift changes the rows in place (no copy).
            var u = ReplayUser(id: "", firstRow: 0)
            swap(&u, &list[k])
            u.shift(rows: rowOffset, lines: lineOffset)
            heldRows += u.entries.count
            var id = u.id
            let known = id.withUTF8 { table.lookup($0) }
            guard let known else {
                _ = id.withUTF8 { table.insert($0, id: Int32(users.count)) }
                users.append(u)
                bad.append(false)
                if otherBad { markBad(users.count - 1) }
                continue
            }
            let i = Int(known)
            if otherBad { markBad(i) }
            let problems = users[i].append(contentsOf: u, file: decoder.file)
            if !problems.isEmpty {
                errors += problems
                userErrors += problems.count
                markBad(i)
            }
        }
        // File order (the boundary's own errors come among the other's), and no more than a stop's worth.
        userErrors += other.userErrors
        errors = Self.inFileOrder(errors, cap: maxErrors + 1)
    }

    /// Errors by line (stable), at most `cap`: what one reader reading the file in order reports.
    public static func inFileOrder(_ errors: [LoadError], cap: Int) -> [LoadError] {
        let sorted = errors.enumerated().sorted { ($0.element.location?.line ?? 0, $0.offset) < ($1.element.location?.line ?? 0, $1.offset) }
            .map(\.element)
        return Array(sorted.prefix(cap))
    }

    /// One partition's encoded rows, grouped as if read from the trace (`badUsers`: those with a
    /// bad row anywhere, left out). False when the bytes are not popsim's encoding.
    public mutating func take(partition bytes: UnsafeBufferPointer<UInt8>, badUsers: Set<UInt64>) -> Bool {
        self.badUsers = badUsers
        var entries: [(String, TraceEntry)] = []
        let ok = TraceEntryCodec.decode(bytes) { user, entry in entries.append((String(decoding: user, as: UTF8.self), entry)) }
        // Rows come in trace order within a partition; a user's first row is its first here.
        for (user, entry) in entries {
            var user = user
            user.withUTF8 { u in
                let next = Int32(users.count)
                if let i = table.insert(u, id: next).map(Int.init) {
                    if let e = users[i].append(entry, file: decoder.file) {
                        errors.append(e)
                        userErrors += 1
                        markBad(i)
                    }
                } else {
                    var r = ReplayUser(id: String(decoding: u, as: UTF8.self), firstRow: entry.row)
                    _ = r.append(entry, file: decoder.file)
                    users.append(r)
                    bad.append(badUsers.contains(Self.hash(u)))
                }
            }
        }
        return ok
    }

    private mutating func add(_ user: UnsafeBufferPointer<UInt8>, _ entry: TraceEntry) {
        if case .shown = entry.kind { sawShown = true }
        guard mine(user) else { return }
        if outbox != nil {
            let h = Self.hash(user)
            TraceEntryCodec.encode(user: user, entry, into: &outbox![Int(h % UInt64(outbox!.count))])
            return
        }
        heldRows += 1
        let next = Int32(users.count)
        if let i = table.insert(user, id: next).map(Int.init) {
            if grouped && i != users.count - 1 {
                markBad(i)
                return comesBack(users[i].id, entry)
            }
            if let e = users[i].append(entry, file: decoder.file) {
                errors.append(e)
                userErrors += 1
                markBad(i)
            }
            return
        }
        let id = String(decoding: user, as: UTF8.self)
        if grouped, finished.contains(Self.hash(id)) {
            table = NameTable()
            for (k, u) in users.enumerated() { table.insert(u.id, id: Int32(k)) }
            return comesBack(id, entry)
        }
        var u = ReplayUser(id: id, firstRow: entry.row)
        _ = u.append(entry, file: decoder.file)
        users.append(u)
        bad.append(false)
    }

    private mutating func comesBack(_ user: String, _ entry: TraceEntry) {
        userErrors += 1
        errors.append(LoadError(file: decoder.file, location: entry.location, path: .root,
                                problem: .expected("the rows of user \(JSONValue.quoted(user)) together (--grouped)",
                                                   got: "another row of it after other users' (leave out --grouped)")))
    }

    private mutating func markBad(_ i: Int) {
        if !bad[i] {
            bad[i] = true
            skippedUsers += 1
        }
    }

    /// Whether the user is this shard's: FNV-1a 64 of its bytes modulo the shard count.
    func mine(_ user: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let shard else { return true }
        return Self.hash(user) % UInt64(shard.count) == UInt64(shard.index)
    }

    /// FNV-1a 64 of a user's bytes: what shards and partitions are chosen by.
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    static func hash(_ s: String) -> UInt64 {
        var s = s
        return s.withUTF8 { hash($0) }
    }
}
