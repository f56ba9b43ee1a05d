import PopsimCore
import PopsimSystem

/// Temporary files that hold a trace's rows by user (FNV-1a 64 of the user modulo their count),
/// when the users are not together and too many rows to keep in memory.
///
/// Each file is removed from its folder as soon as it is made and lives on as an open
/// descriptor: nothing is left behind, whether popsim ends normally, by a signal or killed.
final class TracePartitions {
    private var fds: [Int32] = []
    let folder: String

    init(count: Int, environment: [String: String]) throws(PopsimError) {
        folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        for _ in 0..<count {
            guard let (fd, path) = System.makeTemporary(in: folder) else {
                close()
                throw PopsimError.io(path: folder, reason: "cannot make a temporary file to partition the trace: " + System.lastError
                                     + " (set TMPDIR, or group each user's rows and pass --grouped)")
            }
            System.removeFile(path)
            fds.append(fd)
        }
    }

    var count: Int { fds.count }

    /// Appends each outbox to its file and empties it.
    func write(_ outbox: inout [[UInt8]]) throws(PopsimError) {
        for i in outbox.indices where !outbox[i].isEmpty {
            guard FileIO.writeAll(outbox[i], to: fds[i]) else {
                throw PopsimError.io(path: folder, reason: "cannot write a temporary partition of the trace: " + System.lastError)
            }
            outbox[i].removeAll(keepingCapacity: true)
        }
    }

    /// The bytes of partition `i`, read back whole.
    func read(_ i: Int) throws(PopsimError) -> [UInt8] {
        var bytes: [UInt8] = []
        guard System.rewind(fds[i]) else { throw PopsimError.io(path: folder, reason: "cannot read a temporary partition back") }
        do {
            try FileIO.readRest(fds[i], into: &bytes, maxBytes: Int.max)
        } catch {
            throw PopsimError.io(path: folder, reason: "cannot read a temporary partition back: " + error.reason)
        }
        return bytes
    }

    func close() {
        for fd in fds { System.closeFile(fd) }
        fds = []
    }
}
