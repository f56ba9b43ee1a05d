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
    private(set) var bytes = 0
    private(set) var hash: UInt64 = 0
    private var buffer = [UInt8](repeating: 0, count: SpillPlan.chunk)
    static let base: UInt64 = 0x100_0000_01b3

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

    var digest: String {
        let hex = String(hash, radix: 16)
        return "poly64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether it can be read again from its start (a regular file, not standard input or a pipe).
    var canReadAgain: Bool {
        guard path != "-", let info = System.fileInfo(descriptor: fd), info.kind == .regular else { return false }
        return true
    }

    /// Hands each chunk to `body` until the end; false from `body` stops early.
    mutating func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws(PopsimError) -> Bool) throws(PopsimError) {
        while true {
            let n = buffer.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if System.errorNumber == System.interrupted { continue }
                throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError)
            }
            if n == 0 { return }
            bytes += n
            var h = hash
            let keepGoing = try buffer.withUnsafeBufferPointer { (all) throws(PopsimError) -> Bool in
                let chunk = UnsafeBufferPointer(rebasing: all[0..<n])
                for b in chunk { h = h &* Self.base &+ UInt64(b) }
                return try body(chunk)
            }
            hash = h
            if !keepGoing { return }
        }
    }

    func close() {
        if fd > 0 { System.closeFile(fd) }
    }
}
