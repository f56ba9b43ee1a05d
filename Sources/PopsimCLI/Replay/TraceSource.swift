import PopsimCore
import PopsimSystem

/// A trace read as a stream, in chunks: a file, or standard input for `-` (so that
/// `zcat week.csv.gz | popsim replay - …` works), with its byte count and digest (what shards of
/// one replay must share).
///
/// The digest is SHA-256, when asked for (`TraceDigest`).
struct TraceSource {
    let path: String
    private let fd: Int32
    /// The digest of the bytes read, kept by whoever reads the chunks (`digest.add`), so that it
    /// can be done beside the workers.
    let digest: TraceDigest
    /// Standard input's chunks (or what a file gained since it was opened), read in turn.
    private var buffers = [[UInt8]](repeating: [UInt8](repeating: 0, count: SpillPlan.chunk), count: 2)

    init(_ path: String, hashing: Bool = true) throws(PopsimError) {
        self.path = path
        digest = TraceDigest(hashing: hashing)
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
    /// added to the digest: `body` does that (`digest.add`). Each chunk stays valid until `body`
    /// returns for the chunk after it (or `forEachChunk` returns), so that a chunk's rows can be
    /// gathered while the next one is indexed (`ReplayPass`); `atEnd` runs once every chunk went
    /// to `body` (not when `body` stopped early), the last one still valid.
    ///
    /// A regular file's chunks are mapped (`System.mapFile`): reading copied every byte once more
    /// on one thread (a gain within the VM's noise), and a file cut shorter meanwhile now stops
    /// popsim (SIGBUS, exit 2) where a read ended early on fewer rows; what the file gained since
    /// it was opened is read after.
    mutating func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws(PopsimError) -> Bool,
                               atEnd: () throws(PopsimError) -> Void = {}) throws(PopsimError) {
        var previous: UnsafeRawBufferPointer?
        defer { if let previous { System.unmapFile(previous) } }
        if canReadAgain, let size = System.fileInfo(descriptor: fd)?.size {
            var offset = 0
            while offset < size {
                let count = min(SpillPlan.chunk, size - offset)
                // Not populated: the pages are mapped as the workers' threads first read them,
                // beside one another, not on this thread while the others wait (~2 % of a replay).
                guard let region = System.mapFile(fd, count, offset: offset, populate: false) else { break }
                let keepGoing = try Self.handing(region, after: &previous, to: body)
                if !keepGoing { return }
                offset += count
            }
            guard System.seek(fd, to: offset) else { throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError) }
        }
        // Two buffers, in turn: the one read last stays valid while the other is filled.
        var turn = 0
        while true {
            let n = buffers[turn].withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if System.errorNumber == System.interrupted { continue }
                throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError)
            }
            if n == 0 { return try atEnd() }
            let keepGoing = try buffers[turn].withUnsafeBufferPointer { (all) throws(PopsimError) -> Bool in
                try body(UnsafeBufferPointer(rebasing: all[0..<n]))
            }
            if let region = previous {
                System.unmapFile(region)
                previous = nil
            }
            if !keepGoing { return }
            turn = 1 - turn
        }
    }

    /// `region` to `body`; then the region before it is unmapped and `region` kept in its place.
    private static func handing(_ region: UnsafeRawBufferPointer, after previous: inout UnsafeRawBufferPointer?,
                                to body: (UnsafeBufferPointer<UInt8>) throws(PopsimError) -> Bool) throws(PopsimError) -> Bool {
        defer {
            if let p = previous { System.unmapFile(p) }
            previous = region
        }
        return try body(region.bindMemory(to: UInt8.self))
    }

    func close() {
        if fd > 0 { System.closeFile(fd) }
    }
}

/// A trace's bytes and, when a report carries it, their SHA-256 (`sha256:` and 64 hex digits):
/// what the shards of one replay must share to be merged, so a digest no forged trace can match
/// (issue 41; the 64-bit polynomial hash it replaced was matched by two 2,048-byte words).
/// Without `hashing` only the bytes are counted (the text, CSV and chart reports show no digest,
/// and a replay under them pays nothing for it).
/// Fed beside the workers, on a thread of its own (`ReplayPass`): its state is behind a lock.
final class TraceDigest: Sendable {
    private let state: System.Locked<(bytes: Int, hasher: SHA256?)>

    init(hashing: Bool = true) { state = System.Locked((0, hashing ? SHA256() : nil)) }

    func add(_ chunk: UnsafeBufferPointer<UInt8>) {
        state.withLock { s in
            s.bytes += chunk.count
            s.hasher?.update(chunk)
        }
    }

    var bytes: Int { state.withLock { $0.bytes } }

    var text: String { state.withLock { s in s.hasher.map { "sha256:" + $0.hex() } ?? "" } }
}
