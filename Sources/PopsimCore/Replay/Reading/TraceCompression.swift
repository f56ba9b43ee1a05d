/// The compressed forms a trace is often handed over in (`week.csv.gz`), told by their first
/// bytes: a reader that meets one stops at line 1 with the command that decompresses it, rather
/// than reading binary as a header. popsim links no compression library (Foundation and the
/// standard library only), so the trace is decompressed on the way in (`gzip -dc … | popsim
/// replay - …`).
public enum TraceCompression: String, Sendable, CaseIterable {
    case gzip, bzip2, xz, zstd, zip

    /// Each format's magic number (none holds a line break, so a first record holds it whole).
    var magic: [UInt8] {
        switch self {
        case .gzip: return [0x1F, 0x8B]
        case .bzip2: return Array("BZh".utf8)
        case .xz: return [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
        case .zstd: return [0x28, 0xB5, 0x2F, 0xFD]
        case .zip: return [0x50, 0x4B, 0x03, 0x04]
        }
    }

    /// The command that writes the file decompressed to standard output.
    public var decompressor: String {
        switch self {
        case .gzip: return "gzip -dc"
        case .bzip2: return "bzip2 -dc"
        case .xz: return "xz -dc"
        case .zstd: return "zstd -dc"
        case .zip: return "unzip -p"
        }
    }

    /// The compression whose magic number the bytes start with (bzip2's followed by its block
    /// size digit, so that a CSV whose first column is "BZh…" is not taken for it), if any.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceCompression? {
        allCases.first { c in
            let m = c.magic
            guard bytes.count >= m.count, Swift.zip(m, bytes).allSatisfy({ $0 == $1 }) else { return false }
            if c == .bzip2 { return bytes.count > 3 && (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[3]) }
            return true
        }
    }

    /// A reader's look at the trace's first bytes, however they are cut into chunks: `found`
    /// says the compression once the longest magic number's bytes (or the whole trace) are in.
    public struct Sniffer: Sendable {
        private var head: [UInt8] = []
        private var done = false
        public private(set) var found: TraceCompression?

        public init() {}

        public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
            guard !done else { return }
            head.append(contentsOf: chunk.prefix(Self.length - head.count))
            if head.count >= Self.length { finish() }
        }

        public mutating func finish() {
            guard !done else { return }
            done = true
            found = head.withUnsafeBufferPointer { TraceCompression.of($0) }
            head = []
        }

        /// Enough for every magic number (and bzip2's block size digit).
        static let length = 8
    }
}
