/// The compact form of gathered rows in a temporary partition: what a gatherer writes when the
/// trace's users are too many rows for its memory, and reads back one partition at a time.
///
/// A partition is the magic `PSPT`, a version byte, then records, each its length (a varint),
/// a tag and its fields:
/// - a **run** (tag 1), the rows a user had in memory when the gatherer began to spill, already
///   checked: the user, its first row, whether it is left out, then each row's time (the first
///   absolute, then the step), verb, popup and value;
/// - a **row** (tag 2), one read after that, with its place for messages: the user, the row, the
///   line and column, the time, verb, popup and value.
///
/// A pack's blocks use two more tags, values (3) and a run whose values are numbers (4)
/// (`PackBlockWriter`); a partition never holds them.
///
/// Integers are LEB128 varints (signed ones zigzagged); a verb is its `TraceVerb.ordinal`; a value
/// is its text (a setting's as a trace writes it), so a partition reads back against the catalog
/// alone. Contract: `decode(encode(x)) == x` for every record a trace can give.
public enum PartitionCodec {
    public static let magic: [UInt8] = Array("PSPT".utf8)
    public static let version: UInt8 = 1
    public static var header: [UInt8] { magic + [version] }

    /// One record read back.
    public enum Record {
        case run(user: UnsafeBufferPointer<UInt8>, firstRow: Int, bad: Bool, rows: [(time: Int, entry: PackedEntry)])
        case row(user: UnsafeBufferPointer<UInt8>, row: Int, location: SourceLocation, time: Int, entry: PackedEntry)
    }

    // MARK: Writing

    /// Appends a run record.
    static func encodeRun(user: UnsafeBufferPointer<UInt8>, firstRow: Int, bad: Bool, rows: [(time: Int, entry: PackedEntry)],
                          values: TraceValues, into out: inout [UInt8]) {
        let body = runBody(tag: 1, user: user, firstRow: firstRow, bad: bad, rows: rows) { e, body in entry(e, values, &body) }
        unsigned(body.count, &out)
        out += body
    }

    /// A run record after its length: `tag` (1, or 4 in a pack's block), the user, its first
    /// row, whether it is left out, then each row's time (the first absolute, then the step) and
    /// what `entry` writes of it.
    static func runBody(tag: UInt8, user: UnsafeBufferPointer<UInt8>, firstRow: Int, bad: Bool,
                        rows: some Collection<(time: Int, entry: PackedEntry)>, _ entry: (PackedEntry, inout [UInt8]) -> Void) -> [UInt8] {
        var body: [UInt8] = [tag]
        bytes(user, &body)
        unsigned(firstRow, &body)
        body.append(bad ? 1 : 0)
        unsigned(rows.count, &body)
        var previous = 0
        for (k, r) in rows.enumerated() {
            signed(k == 0 ? r.time : r.time &- previous, &body)
            previous = r.time
            entry(r.entry, &body)
        }
        return body
    }

    /// Appends a row record.
    static func encodeRow(user: UnsafeBufferPointer<UInt8>, row: Int, location: SourceLocation, time: Int, entry e: PackedEntry,
                          values: TraceValues, into out: inout [UInt8]) {
        let start = out.count
        out.append(0) // the length, one byte while it fits
        out.append(2)
        bytes(user, &out)
        unsigned(row, &out)
        unsigned(location.line, &out)
        unsigned(location.column, &out)
        signed(time, &out)
        entry(e, values, &out)
        let length = out.count - start - 1
        if length < 0x80 {
            out[start] = UInt8(length)
        } else {
            var prefix: [UInt8] = []
            unsigned(length, &prefix)
            out.replaceSubrange(start..<(start + 1), with: prefix)
        }
    }

    static func entry(_ e: PackedEntry, _ values: TraceValues, _ out: inout [UInt8]) {
        out.append(e.op)
        signed(Int(e.popup), &out)
        if let text = e.holdsSetting ? values.setting(e.value).map({ TraceValues.raw($0.1) }) : values.text(e.value) {
            var text = text
            text.withUTF8 { b in
                unsigned(b.count + 1, &out)
                out.append(contentsOf: b)
            }
        } else {
            out.append(0)
        }
    }

    static func bytes(_ b: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
        unsigned(b.count, &out)
        out.append(contentsOf: b)
    }

    static func unsigned(_ v: Int, _ out: inout [UInt8]) {
        var u = UInt64(bitPattern: Int64(v))
        while u >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: u) | 0x80)
            u >>= 7
        }
        out.append(UInt8(u))
    }

    static func signed(_ v: Int, _ out: inout [UInt8]) {
        let z = (UInt64(bitPattern: Int64(v)) << 1) ^ UInt64(bitPattern: Int64(v >> 63))
        unsigned(Int(Int64(bitPattern: z)), &out)
    }

    // MARK: Reading

    /// Reads records from bytes that come in pieces: each complete record is handed over (its
    /// user's bytes valid during the call); a record cut by a piece's end waits for the next.
    public struct Reader {
        private var carry: [UInt8] = []
        private var sawHeader = false
        /// The catalog's state, to type a setting read back.
        let state: [StateValue]
        /// For bytes popsim did not just write itself (a pack): the catalog's popup count, every
        /// entry checked against it and every run's times checked (`Cursor.checked`); nil for
        /// temporary partitions.
        let popups: Int?
        /// A pack block's values so far (`PackBlockWriter`): each one's id in the caller's
        /// `TraceValues`, and its variable's index for a setting (-1: a text).
        private var table: [(id: Int32, variable: Int)] = []

        public init(state: [StateValue], popups: Int? = nil) {
            self.state = state
            self.popups = popups
        }

        /// Each record, decoded (its values interned in `values`); false when the bytes are not
        /// popsim's encoding.
        public mutating func feed(_ piece: UnsafeBufferPointer<UInt8>, values: inout TraceValues, _ body: (Record) -> Void) -> Bool {
            let state = self.state, popups = self.popups
            var table: [(id: Int32, variable: Int)] = []
            swap(&table, &self.table)
            defer { swap(&table, &self.table) }
            return records(piece) { bytes in
                var c = Cursor(bytes: bytes)
                if bytes.first == 3 { return c.valueTable(state, &values, into: &table) && c.at == bytes.count }
                guard let record = c.record(state, &values, table: table), c.at == bytes.count else { return false }
                if let popups, !Cursor.checked(record, popups: popups, values) { return false }
                body(record)
                return true
            }
        }

        /// Each record undecoded (its bytes after the length), with its user's bytes: what a
        /// split copies to the next level.
        public mutating func feedRaw(_ piece: UnsafeBufferPointer<UInt8>,
                                     _ body: (_ user: UnsafeBufferPointer<UInt8>, _ record: UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
            records(piece) { bytes in
                var c = Cursor(bytes: bytes)
                guard let tag = c.byte(), tag == 1 || tag == 2, let user = c.slice() else { return false }
                body(user, bytes)
                return true
            }
        }

        /// Whether the pieces ended on a record's end.
        public var isAtEnd: Bool { carry.isEmpty && sawHeader }

        private mutating func records(_ piece: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            if carry.isEmpty {
                var used = 0
                guard scan(piece, &used, body) else { return false }
                carry = Array(piece[used...])
                return true
            }
            carry.append(contentsOf: piece)
            let all = carry
            var used = 0
            let ok = all.withUnsafeBufferPointer { scan($0, &used, body) }
            // A record longer than a piece is kept as it grows, not copied again for each piece
            // (a user of many mebibytes read back in 1 MiB pieces was quadratic).
            if used > 0 { carry = Array(all[used...]) }
            return ok
        }

        private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ used: inout Int, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            var at = 0
            if !sawHeader {
                guard bytes.count >= 5 else { return true }
                guard Array(bytes[0..<4]) == PartitionCodec.magic, bytes[4] == PartitionCodec.version else { return false }
                at = 5
                sawHeader = true
                used = 5
            }
            while at < bytes.count {
                var probe = Cursor(bytes: bytes, at: at)
                guard let length = probe.unsigned() else { return true } // the length itself is cut
                guard length > 0 else { return false }
                guard length <= bytes.count - probe.at else { return true } // cut: wait for more
                guard body(UnsafeBufferPointer(rebasing: bytes[probe.at..<(probe.at + length)])) else { return false }
                at = probe.at + length
                used = at
            }
            return true
        }
    }

    /// Appends a record read undecoded (`Reader.feedRaw`) as it was written.
    static func copy(_ record: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        unsigned(record.count, &out)
        out.append(contentsOf: record)
    }

    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        /// Whether a record read from bytes popsim may not have written makes a user a replay can
        /// run: a run (a pack holds nothing else) whose times go forward within ±2⁶² ms and
        /// whose entries each make their action or name a popup of the catalog's `popups`.
        static func checked(_ record: Record, popups: Int, _ values: TraceValues) -> Bool {
            // A user with rows, not left out, its first row a row number a trace can have.
            guard case .run(_, let firstRow, let bad, let rows) = record, !rows.isEmpty, !bad, firstRow >= 1,
                  firstRow <= TracePack.maxCount else { return false }
            var previous = Int.min
            for r in rows {
                guard r.time >= previous, r.time.magnitude < UInt(TraceTime.limit) else { return false }
                previous = r.time
                let popupKnown = r.entry.popup < Int32(clamping: popups)
                switch r.entry.verb {
                case .action(let kind)?:
                    switch kind.argument {
                    case .state:
                        // Typed against the catalog's state as it was read; of the row's variable.
                        guard let setting = values.setting(r.entry.value), setting.0.index == Int(r.entry.popup) else { return false }
                        continue
                    case .priority, .flag, .screen: break // `popup` is no popup's index
                    case .popup, .popups, .press, .timerTarget: guard popupKnown else { return false }
                    }
                    guard r.entry.argument(kind, values) != nil else { return false }
                case .shown?, .dismissed?, .dropped?:
                    guard r.entry.popupID != nil, popupKnown else { return false }
                case nil:
                    return false
                }
            }
            return true
        }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            at += 1
            return bytes[at - 1]
        }

        mutating func unsigned() -> Int? {
            var v: UInt64 = 0, shift: UInt64 = 0
            while let b = byte() {
                guard shift < 64 else { return nil }
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return Int(Int64(bitPattern: v)) }
                shift += 7
            }
            return nil
        }

        mutating func signed() -> Int? {
            unsigned().map { u in
                let z = UInt64(bitPattern: Int64(u))
                return Int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
            }
        }

        mutating func slice() -> UnsafeBufferPointer<UInt8>? {
            guard let n = unsigned(), n >= 0, n <= bytes.count - at else { return nil }
            defer { at += n }
            return UnsafeBufferPointer(rebasing: bytes[at..<(at + n)])
        }

        mutating func entry(_ state: [StateValue], _ values: inout TraceValues) -> PackedEntry? {
            guard let op = byte(), let verb = TraceVerb(ordinal: op), let popup = signed(), let popup32 = Int32(exactly: popup),
                  let n = unsigned(), n >= 0 else { return nil }
            var value: Int32 = -1
            if n > 0 {
                guard n - 1 <= bytes.count - at else { return nil }
                let text = UnsafeBufferPointer(rebasing: bytes[at..<(at + n - 1)])
                at += n - 1
                if case .action(let kind) = verb, kind.argument == .state {
                    guard popup >= 0, popup < state.count,
                          let id = values.intern(setting: VariableID(index: popup), raw: text, make: {
                              TraceRowDecoder.value(text, like: state[popup])
                          }) else { return nil }
                    value = id
                } else {
                    value = values.intern(bytes: text)
                }
            }
            return PackedEntry(op: op, popup: popup32, value: value)
        }

        /// A values record (tag 3, `PackBlockWriter`): each value interned into `values` and its
        /// id appended to `table`; false when the bytes are not one.
        mutating func valueTable(_ state: [StateValue], _ values: inout TraceValues, into table: inout [(id: Int32, variable: Int)]) -> Bool {
            guard byte() == 3, let n = unsigned(), n >= 0, n <= bytes.count else { return false }
            for _ in 0..<n {
                guard let kind = byte(), kind <= 1 else { return false }
                var variable = -1
                if kind == 1 {
                    guard let v = unsigned(), v >= 0, v < state.count else { return false }
                    variable = v
                }
                guard let text = slice() else { return false }
                if variable >= 0 {
                    guard let id = values.intern(setting: VariableID(index: variable), raw: text, make: {
                        TraceRowDecoder.value(text, like: state[variable])
                    }) else { return false }
                    table.append((id, variable))
                } else {
                    table.append((values.intern(bytes: text), -1))
                }
            }
            return true
        }

        /// An entry whose value is a number into a pack block's `table` (tag 4's rows).
        mutating func numberedEntry(_ table: [(id: Int32, variable: Int)]) -> PackedEntry? {
            guard let op = byte(), let verb = TraceVerb(ordinal: op), let popup = signed(), let popup32 = Int32(exactly: popup),
                  let n = unsigned() else { return nil }
            guard n > 0 else { return PackedEntry(op: op, popup: popup32, value: -1) }
            guard n - 1 < table.count else { return nil }
            let value = table[n - 1]
            var isSetting = false
            if case .action(let kind) = verb { isSetting = kind.argument == .state }
            // A setting's value is of the row's variable; any other value is a text.
            guard isSetting ? value.variable == popup : value.variable < 0 else { return nil }
            return PackedEntry(op: op, popup: popup32, value: value.id)
        }

        /// A record: a run (tag 1, or tag 4 with numbered values read through `table`) or a row.
        mutating func record(_ state: [StateValue], _ values: inout TraceValues, table: [(id: Int32, variable: Int)] = []) -> Record? {
            let tag = byte()
            switch tag {
            case 1, 4:
                guard let user = slice(), let firstRow = unsigned(), let bad = byte(), let n = unsigned(), n >= 0, n <= bytes.count else { return nil }
                var rows: [(time: Int, entry: PackedEntry)] = []
                rows.reserveCapacity(n)
                var time = 0
                for k in 0..<n {
                    guard let step = signed(), let e = tag == 4 ? numberedEntry(table) : entry(state, &values) else { return nil }
                    time = k == 0 ? step : time &+ step
                    rows.append((time, e))
                }
                return .run(user: user, firstRow: firstRow, bad: bad != 0, rows: rows)
            case 2:
                guard let user = slice(), let row = unsigned(), let line = unsigned(), let column = unsigned(), let time = signed(),
                      let e = entry(state, &values) else { return nil }
                return .row(user: user, row: row, location: SourceLocation(line: line, column: column), time: time, entry: e)
            default:
                return nil
            }
        }
    }
}
