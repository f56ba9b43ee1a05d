/// A trace packed for replay (`popsim replay TRACE --pack FILE`): its users' rows decoded once
/// against one catalog and grouped by user, with what reading the trace found, so that a replay
/// of the pack (under other strategies, options or sweeps) skips reading, decoding and gathering
/// (libCacheSim's idea of converting a trace once into a compact binary form).
///
/// The file: the magic `PSPK` and a version byte; blocks, each a `PackBlockWriter` stream (its
/// own `PSPT` header, whole users only, values numbered, about `blockBytes` each); the manifest, a
/// JSON object (`Manifest`); and a footer of 28 bytes: the manifest's offset, length and checksum
/// (64-bit little-endian) and `PSPK` again. Each block's checksum is in the manifest: a byte
/// changed anywhere is found. The block sizes are in the manifest, so workers read blocks
/// on their own.
///
/// Contract: a pack replays to the same report bytes as its trace under the same catalog and
/// reading settings (the manifest carries the trace's name, size, digest and reading figures);
/// it is bound to the catalog's bytes (`catalogDigest`) and read only against them. Its contents
/// are checked as they are read (`PartitionCodec.Reader(popups:)`): a damaged or forged pack is
/// an error, never a crash.
public enum TracePack {
    public static let magic: [UInt8] = Array("PSPK".utf8)
    public static let version: UInt8 = 1
    public static var header: [UInt8] { magic + [version] }
    public static let footerBytes = 28
    /// Users are written in blocks of about this many bytes: the unit a worker reads and replays.
    public static let blockBytes = 1 << 20
    /// The largest count a manifest holds (as `--merge` reads a report's): sums of a few stay far
    /// from overflowing.
    public static let maxCount = 1 << 44

    /// A block's checksum, fed in pieces (`add` each, in order): what tells that a block changed
    /// on disk or on its way (not a forgery), eight bytes at a time.
    public struct Checksum {
        private var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var count = 0
        /// The bytes of a word a piece ended inside of.
        private var carry: [UInt8] = []

        public init() {}

        public mutating func add(_ piece: UnsafeBufferPointer<UInt8>) {
            guard let base = piece.baseAddress else { return }
            count += piece.count
            var i = 0
            while !carry.isEmpty, carry.count < 8, i < piece.count {
                carry.append(piece[i])
                i += 1
            }
            if carry.count == 8 {
                mix(carry.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
                carry.removeAll(keepingCapacity: true)
            }
            let raw = UnsafeRawPointer(base)
            while i + 8 <= piece.count {
                mix(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            carry.append(contentsOf: piece[i...])
        }

        private mutating func mix(_ word: UInt64) {
            h = (h ^ word) &* 0x100_0000_01B3 &+ 0x2545_F491_4F6C_DD1D
            h ^= h >> 29
        }

        public var value: UInt64 {
            var v = h
            for b in carry { v = (v ^ UInt64(b)) &* 0x100_0000_01B3 }
            v ^= UInt64(count)
            return v ^ (v >> 32)
        }

        public static func of(_ bytes: [UInt8]) -> UInt64 {
            var c = Checksum()
            bytes.withUnsafeBufferPointer { c.add($0) }
            return c.value
        }
    }

    /// Whether `bytes` (a file's first bytes) begin a pack: the magic, then a version byte that
    /// no text has there (a control byte other than a tab or a line's end), so a CSV whose first
    /// column is named `PSPK` stays a CSV; a pack of any version is still taken for one (and
    /// refused by its version, with a word on packing again).
    public static func sniffs(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > magic.count, Array(bytes[0..<magic.count]) == magic else { return false }
        let v = bytes[magic.count]
        return v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D
    }

    /// The footer pointing at a manifest of `length` bytes at `offset`, with its checksum.
    public static func footer(offset: Int, length: Int, checksum: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        for v in [UInt64(offset), UInt64(length), checksum] {
            for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
        }
        return out + magic
    }

    /// The manifest's offset, length and checksum from a footer; nil when it is not one.
    public static func manifestPlace(footer: [UInt8], fileBytes: Int) -> (offset: Int, length: Int, checksum: UInt64)? {
        guard footer.count == footerBytes, Array(footer[24..<28]) == magic, fileBytes >= header.count + footerBytes else { return nil }
        func word(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(footer[at + $1]) << (8 * UInt64($1)) } }
        let offset = word(0), length = word(8), before = UInt64(fileBytes - footerBytes)
        // The manifest ends where the footer begins.
        guard offset >= UInt64(header.count), length <= before, offset == before - length else { return nil }
        return (Int(offset), Int(length), word(16))
    }

    /// What reading the trace found, and where the pack's blocks are.
    public struct Manifest: Sendable, Equatable {
        /// The trace as the packing replay named it, its bytes and digest (`sha256:…`).
        public var trace: String
        public var traceBytes: Int
        public var traceDigest: String
        /// The catalog the rows were decoded against (`sha256:` of its bytes).
        public var catalogDigest: String
        /// How the trace was read (format, columns, time, mapping: the settings digest's lines).
        public var reading: [String]
        public var maxErrors: Int
        public var rows: Int
        public var badRows: Int
        public var userErrors: Int
        public var skippedUsers: Int
        public var hasProduction: Bool
        public var hasTriggers: Bool
        /// Rows skipped as unmapped events, by event name, sorted by name.
        public var unmapped: [(event: String, rows: Int)]
        /// Rows skipped as unmapped events whose names are not listed (`UnmappedEvents`).
        public var unmappedUnlisted = 0
        /// Every row skipped as an unmapped event, listed or not.
        public var unmappedRows: Int { unmapped.reduce(unmappedUnlisted) { $0 &+ $1.rows } }
        public var users: Int
        /// Each block's bytes and checksum, in order after the header.
        public var blocks: [Block]

        public struct Block: Sendable, Equatable {
            public var bytes: Int
            public var checksum: UInt64
            public init(bytes: Int, checksum: UInt64) {
                self.bytes = bytes
                self.checksum = checksum
            }
        }

        public init(trace: String, traceBytes: Int, traceDigest: String, catalogDigest: String, reading: [String], maxErrors: Int,
                    rows: Int, badRows: Int, userErrors: Int, skippedUsers: Int, hasProduction: Bool, hasTriggers: Bool,
                    unmapped: [(event: String, rows: Int)], users: Int, blocks: [Block]) {
            self.trace = trace
            self.traceBytes = traceBytes
            self.traceDigest = traceDigest
            self.catalogDigest = catalogDigest
            self.reading = reading
            self.maxErrors = maxErrors
            self.rows = rows
            self.badRows = badRows
            self.userErrors = userErrors
            self.skippedUsers = skippedUsers
            self.hasProduction = hasProduction
            self.hasTriggers = hasTriggers
            self.unmapped = unmapped.sorted { $0.event < $1.event }
            self.users = users
            self.blocks = blocks
        }

        public static func == (a: Manifest, b: Manifest) -> Bool {
            a.json == b.json
        }

        /// The manifest as one JSON object.
        public var json: String {
            var o = JSONObjectWriter()
            o.add("popsimPack", Int(TracePack.version))
            o.add("trace", trace)
            o.add("traceBytes", traceBytes)
            o.add("traceDigest", traceDigest)
            o.add("catalogDigest", catalogDigest)
            o.add("reading", strings: reading)
            o.add("maxErrors", maxErrors)
            o.add("rows", rows)
            o.add("badRows", badRows)
            o.add("userErrors", userErrors)
            o.add("skippedUsers", skippedUsers)
            o.add("production", hasProduction)
            o.add("triggers", hasTriggers)
            var u = JSONObjectWriter()
            for (event, n) in unmapped { u.add(event, n) }
            o.add("unmapped", json: u.closed)
            // Only when some are: a pack of fewer names reads as before.
            if unmappedUnlisted > 0 { o.add("unmappedUnlisted", unmappedUnlisted) }
            o.add("users", users)
            o.add("blocks", json: JSONObjectWriter.array(blocks.map { b in
                var one = JSONObjectWriter()
                one.add("bytes", b.bytes)
                one.add("checksum", String(b.checksum, radix: 16))
                return one.closed
            }))
            return o.closed
        }

        /// Reads a manifest back; nil when `bytes` are not one this version wrote.
        public static func read(_ bytes: [UInt8]) -> Manifest? {
            guard let value = try? JSONReader.parse(bytes), case .object(let members) = value.kind else { return nil }
            var fields: [String: JSONValue.Kind] = [:]
            for m in members { fields[m.key] = m.value.kind }
            // Counts within `maxCount`, as `--merge` reads a report's: sums of them never overflow.
            func count(_ kind: JSONValue.Kind?) -> Int? {
                guard case .number(let n)? = kind, let v = n.integer, v >= 0, v <= TracePack.maxCount else { return nil }
                return v
            }
            func int(_ key: String) -> Int? { count(fields[key]) }
            func string(_ key: String) -> String? {
                guard case .string(let s)? = fields[key] else { return nil }
                return s
            }
            func bool(_ key: String) -> Bool? {
                guard case .bool(let b)? = fields[key] else { return nil }
                return b
            }
            guard int("popsimPack") == Int(TracePack.version),
                  let trace = string("trace"), let traceBytes = int("traceBytes"), let traceDigest = string("traceDigest"),
                  let catalogDigest = string("catalogDigest"), case .array(let readingValues)? = fields["reading"],
                  let maxErrors = int("maxErrors"), let rows = int("rows"), let badRows = int("badRows"), let userErrors = int("userErrors"),
                  let skippedUsers = int("skippedUsers"), let hasProduction = bool("production"), let hasTriggers = bool("triggers"),
                  case .object(let unmappedMembers)? = fields["unmapped"], let users = int("users"),
                  case .array(let blockValues)? = fields["blocks"] else { return nil }
            var reading: [String] = []
            for v in readingValues {
                guard case .string(let s) = v.kind else { return nil }
                reading.append(s)
            }
            var unmapped: [(event: String, rows: Int)] = []
            for m in unmappedMembers {
                guard let v = count(m.value.kind) else { return nil }
                unmapped.append((m.key, v))
            }
            // Each event once, within the names a pack lists.
            guard Set(unmapped.map(\.event)).count == unmapped.count, unmapped.count <= UnmappedEvents.listed else { return nil }
            let unlisted = fields["unmappedUnlisted"] == nil ? 0 : int("unmappedUnlisted")
            guard let unlisted, unlisted == 0 || unmapped.isEmpty else { return nil }
            var blocks: [Block] = []
            for v in blockValues {
                guard case .object(let parts) = v.kind, parts.count == 2, parts[0].key == "bytes", parts[1].key == "checksum",
                      let size = count(parts[0].value.kind), size > PartitionCodec.header.count,
                      case .string(let hex) = parts[1].value.kind, let checksum = UInt64(hex, radix: 16) else { return nil }
                blocks.append(Block(bytes: size, checksum: checksum))
            }
            // A pack holds one user at least (a replay of none writes none). Its counts are what
            // a replay that ended well read: bad rows within `maxErrors`, every count within the
            // rows, a user a row at least, a block a user at least (a forged count is printed and
            // merged as read otherwise).
            var manifest = Manifest(trace: trace, traceBytes: traceBytes, traceDigest: traceDigest, catalogDigest: catalogDigest, reading: reading,
                                    maxErrors: maxErrors, rows: rows, badRows: badRows, userErrors: userErrors, skippedUsers: skippedUsers,
                                    hasProduction: hasProduction, hasTriggers: hasTriggers, unmapped: unmapped, users: users, blocks: blocks)
            manifest.unmappedUnlisted = unlisted
            guard users > 0, !blocks.isEmpty, blocks.count <= users, users <= rows, badRows <= maxErrors, badRows <= rows,
                  userErrors <= rows, skippedUsers <= rows, manifest.unmappedRows <= rows else { return nil }
            return manifest
        }
    }
}
