import PopsimCore
import PopsimSystem

/// A trace read as a stream, in chunks: a file, or standard input for `-` (so that
/// `zcat week.csv.gz | popsim replay - …` works), with its byte count and FNV-1a 64 digest
/// (what shards of one replay must share).
struct TraceSource {
    let path: String
    private let fd: Int32
    private(set) var bytes = 0
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

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
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Hands each chunk to `body` until the end; false from `body` stops early.
    mutating func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(PopsimError) {
        while true {
            let n = buffer.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, $0.count) }
            if n < 0 { throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError) }
            if n == 0 { return }
            bytes += n
            var h = hash
            let keepGoing = buffer.withUnsafeBufferPointer { all -> Bool in
                let chunk = UnsafeBufferPointer(rebasing: all[0..<n])
                for b in chunk { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
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
