import PopsimCore
import PopsimSystem

/// A trace read as a stream, in chunks: a file, or standard input for `-` (so that
/// `zcat week.csv.gz | popsim replay - …` works), with its byte count and digest (what shards of
/// one replay must share).
///
/// The digest is a polynomial hash modulo 2⁶⁴ (h = h·P + byte).
struct TraceSource {
    let path: String
    private let fd: Int32
    /// The digest of the bytes read, kept by whoever reads the chunks (`digest.add`), so that it
    /// can be done beside the workers.
    let digest = TraceDigest()
    private var buffer = [UInt8](repeating: 0, count: SpillPlan.chunk)

    init(_ path: String) throws(PopsimError) {
        self.path = path
        if path == "-" {
            fd = 0
        } else {
            if FileIO.isDirectory(path) { throw PopsimError.io(path: path, reason: "is a directory, not a trace") }
            fd = System.openForReading(path)
            guard fd >= 0 else { throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError) }
        }
    }

    var bytes: Int { digest.bytes }

    /// Whether it can be read again from its start (a regular file, not standard input or a pipe).
    var canReadAgain: Bool {
        guard path != "-", let info = System.fileInfo(descriptor: fd), info.kind == .regular else { return false }
        return true
    }

    /// Hands each chunk to `body` until the end; false from `body` stops early. The chunk is not
    /// added to the digest: `body` does that (`digest.add`).
    mutating func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws(PopsimError) -> Bool) throws(PopsimError) {
        while true {
            let n = buffer.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if System.errorNumber == System.interrupted { continue }
                throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError)
            }
            if n == 0 { return }
            let keepGoing = try buffer.withUnsafeBufferPointer { (all) throws(PopsimError) -> Bool in
                try body(UnsafeBufferPointer(rebasing: all[0..<n]))
            }
            if !keepGoing { return }
        }
    }

    func close() {
        if fd > 0 { System.closeFile(fd) }
    }
}

/// A trace's bytes and their digest: a polynomial hash modulo 2⁶⁴ (h = h·P + byte, from 0), as
/// `poly64:` and 16 hex digits. Eight bytes at a time (h·P⁸ + the block's own sum), the same
/// value as byte by byte.
final class TraceDigest: @unchecked Sendable {
    private(set) var hash: UInt64 = 0
    private(set) var bytes = 0
    static let base: UInt64 = 0x100_0000_01b3
    /// P⁷ … P⁰, and P⁸.
    private static let powers: [UInt64] = (0..<8).map { power(7 - $0) }
    private static let eighth = power(8)

    static func power(_ n: Int) -> UInt64 {
        var r: UInt64 = 1
        for _ in 0..<n { r = r &* base }
        return r
    }

    func add(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard let base = chunk.baseAddress else { return }
        var h = hash, i = 0
        let n = chunk.count
        Self.powers.withUnsafeBufferPointer { p in
            while i + 8 <= n {
                var block = UInt64(base[i]) &* p[0]
                block = block &+ UInt64(base[i + 1]) &* p[1]
                block = block &+ UInt64(base[i + 2]) &* p[2]
                block = block &+ UInt64(base[i + 3]) &* p[3]
                block = block &+ UInt64(base[i + 4]) &* p[4]
                block = block &+ UInt64(base[i + 5]) &* p[5]
                block = block &+ UInt64(base[i + 6]) &* p[6]
                block = block &+ UInt64(base[i + 7])
                h = h &* Self.eighth &+ block
                i += 8
            }
        }
        while i < n {
            h = h &* Self.base &+ UInt64(base[i])
            i += 1
        }
        hash = h
        bytes += n
    }

    var text: String {
        let hex = String(hash, radix: 16)
        return "poly64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
