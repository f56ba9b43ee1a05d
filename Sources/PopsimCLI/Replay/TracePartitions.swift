import PopsimCore
import PopsimSystem

/// A worker's temporary partitions as files (in `TMPDIR`, else `/tmp`): each removed from its
/// folder as soon as it is made and kept as an open descriptor, so nothing is left behind
/// whether popsim ends normally, by a signal or killed.
final class TracePartitions: SpillStore {
    private var fds: [Int32] = []
    private var sizes: [Int] = []
    let folder: String
    /// The piece a partition is read back in.
    static let piece = 1 << 20

    init(count: Int, folder: String) throws(PopsimError) {
        self.folder = folder
        for _ in 0..<count {
            guard let (fd, path) = System.makeTemporary(in: folder) else {
                close()
                throw PopsimError.io(path: folder, reason: "cannot make a temporary file to partition the trace: " + System.lastError
                                     + " (set TMPDIR, give more --memory, or group each user's rows together)")
            }
            System.removeFile(path)
            fds.append(fd)
            sizes.append(0)
        }
    }

    /// The folder for partitions: `TMPDIR`, else `/tmp`.
    static func folder(_ environment: [String: String]) -> String {
        environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// The folder, checked before any row is read: a `TMPDIR` that names nothing, a file or a
    /// device is an error now, not after the trace was read up to the memory budget (the system's
    /// own folder is only tried when a partition is made).
    static func checkedFolder(_ environment: [String: String]) throws(PopsimError) -> String {
        let folder = folder(environment)
        guard environment["TMPDIR"].map({ $0.isEmpty }) == false else { return folder }
        guard System.fileInfo(folder)?.kind == .directory, System.canWrite(folder) else {
            let what = System.fileInfo(folder) == nil ? "nothing is there" : "it is not a folder popsim can write to"
            throw PopsimError.io(path: folder, reason: "cannot keep temporary partitions of the trace there (TMPDIR): \(what)")
        }
        return folder
    }

    var count: Int { fds.count }

    func append(_ part: Int, _ bytes: [UInt8]) throws(PopsimError) {
        guard FileIO.writeAll(bytes, to: fds[part]) else {
            throw PopsimError.io(path: folder, reason: "cannot write a temporary partition of the trace: " + System.lastError)
        }
        sizes[part] += bytes.count
    }

    func size(_ part: Int) -> Int { sizes[part] }

    func read(_ part: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(PopsimError) {
        guard System.rewind(fds[part]) else { throw PopsimError.io(path: folder, reason: "cannot read a temporary partition back") }
        if let short = FileIO.readPieces(fds[part], count: sizes[part], piece: Self.piece, body) {
            throw PopsimError.io(path: folder, reason: "cannot read a temporary partition back: " + short.reason)
        }
    }

    func close() {
        for fd in fds { System.closeFile(fd) }
        fds = []
        sizes = []
    }
}
