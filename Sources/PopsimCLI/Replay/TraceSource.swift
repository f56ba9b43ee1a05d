import PopsimCore
import PopsimSystem

/// A trace read as a stream, in chunks: a file, or standard input for `-` (so that
/// `zcat week.csv.gz | popsim replay - …` works), with its byte count and digest (what shards of
/// one replay must share).
///
/// The digest is a polynomial hash modulo 2⁶⁴ (h = h·P + byte): the digests of two pieces
/// combine into the digest of the whole (`combine`), so two readers of one file agree with one.
struct TraceSource {
    let path: String
    private let fd: Int32
    private(set) var bytes = 0
    private(set) var hash: UInt64 = 0
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    static let base: UInt64 = 0x100_0000_01b3

    /// `offset`: start reading there (a regular file).
    init(_ path: String, offset: Int = 0) throws(PopsimError) {
        self.path = path
        if path == "-" {
            fd = 0
        } else {
            if FileIO.isDirectory(path) { throw PopsimError.io(path: path, reason: "is a directory, not a trace") }
            fd = System.openForReading(path)
            guard fd >= 0 else { throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError) }
            if offset > 0, !System.seek(fd, to: offset) {
                System.closeFile(fd)
                throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError)
            }
        }
    }

    var digest: String {
        let hex = String(hash, radix: 16)
        return "poly64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The size of a regular file, else nil (standard input, a pipe, a device).
    var regularSize: Int? {
        guard path != "-", let info = System.fileInfo(descriptor: fd), info.kind == .regular else { return nil }
        return info.size
    }

    /// Adds the digest and length of the bytes that follow these.
    mutating func combine(_ other: TraceSource) {
        hash = hash &* Self.power(other.bytes) &+ other.hash
        bytes += other.bytes
    }

    static func power(_ n: Int) -> UInt64 {
        var result: UInt64 = 1, b = base, e = n
        while e > 0 {
            if e & 1 == 1 { result = result &* b }
            b = b &* b
            e >>= 1
        }
        return result
    }

    /// Hands each chunk to `body` until the end, or until `limit` bytes have been read in all;
    /// false from `body` stops early.
    mutating func forEachChunk(limit: Int = .max, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(PopsimError) {
        while bytes < limit {
            let want = min(buffer.count, limit - bytes)
            let n = buffer.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, want) }
            if n < 0 {
                if System.errorNumber == System.interrupted { continue }
                throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError)
            }
            if n == 0 { return }
            bytes += n
            var h = hash
            let keepGoing = buffer.withUnsafeBufferPointer { all -> Bool in
                let chunk = UnsafeBufferPointer(rebasing: all[0..<n])
                for b in chunk { h = h &* Self.base &+ UInt64(b) }
                return body(chunk)
            }
            hash = h
            if !keepGoing { return }
        }
    }

    func close() {
        if fd > 0 { System.closeFile(fd) }
    }
}
