/// Spilling (users too many rows for the memory a gatherer may hold) and reading back.
extension UserGatherer {
    /// Begins spilling into `1 << bits` partitions, chosen by the hash's `bits` digits below the
    /// first `skip` (the high digits first; a partition read back and split again takes the next):
    /// every held user goes to its partition's outbox as a run, and from now on every row.
    public mutating func beginSpilling(bits: Int, skip: Int = 0) {
        partitionShift = UInt64(64 - skip - bits)
        partitionMask = (1 << bits) - 1
        var boxes = [[UInt8]](repeating: PartitionCodec.header, count: 1 << bits)
        var rows: [TimedEntry] = []
        for i in 0..<users.count {
            let u = users[i]
            if u.bad { badUsers.insert(u.hash) }
            self.rows(of: i, into: &rows)
            PartitionCodec.encodeRun(user: users.id(i), firstRow: u.firstRow, bad: u.bad, rows: rows.map { ($0.time, $0.entry) },
                                     values: values, into: &boxes[partition(u.hash)])
        }
        users.removeAll()
        held.removeAll()
        arranged.removeAll()
        values = TraceValues()
        lastIndex = nil
        outboxes = boxes
    }

    public var isSpilling: Bool { outboxes != nil }

    /// Bytes waiting in the outboxes.
    public var outboxBytes: Int { outboxes?.reduce(0) { $0 + $1.count } ?? 0 }

    /// Hands each outbox that holds bytes to `write` (partition, bytes) and empties it.
    public mutating func flush(_ write: (Int, [UInt8]) throws(PopsimError) -> Void) throws(PopsimError) {
        guard var boxes = outboxes else { return }
        outboxes = nil
        defer { outboxes = boxes }
        for i in boxes.indices where !boxes[i].isEmpty {
            try write(i, boxes[i])
            boxes[i].removeAll(keepingCapacity: true)
        }
        // What was interned for those rows is written out with them.
        values = TraceValues()
    }

    // MARK: Reading a partition back

    /// One record of a partition (this gatherer holding, never spilling): a run is taken as it
    /// was checked; a row is checked against its user's last time, as one reader would have.
    /// `leftOut`: users with a bad row found while spilling (counted then).
    public mutating func take(_ record: PartitionCodec.Record, leftOut: Set<UInt64>) {
        switch record {
        case .run(let user, let firstRow, let bad, let rows):
            let hash = UserTable.hash(user)
            let i = users.find(user, hash: hash) ?? users.insert(user, hash: hash, firstRow: firstRow, time: .min)
            for r in rows { append(i, TimedEntry(time: r.time, entry: r.entry)) }
            if bad || leftOut.contains(hash) {
                var u = users[i]
                u.bad = true
                users[i] = u
            }
        case .row(let user, let row, let location, let time, let entry):
            let hash = UserTable.hash(user)
            guard let i = users.find(user, hash: hash) else {
                let i = users.insert(user, hash: hash, firstRow: row, time: time)
                append(i, TimedEntry(time: time, entry: entry))
                if leftOut.contains(hash) {
                    var u = users[i]
                    u.bad = true
                    users[i] = u
                }
                return
            }
            if time < users[i].lastTime {
                userErrors += 1
                report(TraceError(file: decoder.file, location: location, problem: .timeGoesBack(user: String(decoding: user, as: UTF8.self), time: time,
                                                                                                       unit: decoder.layout.timeUnit)))
                markBad(i)
                return
            }
            append(i, TimedEntry(time: time, entry: entry))
        }
    }

    /// A record of a partition too big to read back (undecoded), into `outboxes` by the hash's
    /// next digits (as `beginSpilling(bits:skip:)` set them).
    public mutating func split(user: UnsafeBufferPointer<UInt8>, record: UnsafeBufferPointer<UInt8>) {
        guard var boxes = outboxes else { return }
        outboxes = nil
        PartitionCodec.copy(record, into: &boxes[partition(UserTable.hash(user))])
        outboxes = boxes
    }
}
