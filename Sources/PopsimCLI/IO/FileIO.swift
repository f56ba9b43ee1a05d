import PopsimCore
import PopsimReports
import PopsimSystem

/// Reading scenarios and writing outputs, with errors a user can act on.
///
/// Writes are atomic: a temporary file beside the target, then `rename`, so a failed run never
/// leaves a partial file behind.
public enum FileIO {
    /// Why a file could not be read or written, as one line without the path.
    public struct Failure: Error, Equatable, Sendable {
        public var reason: String
    }

    /// The largest input read by default: popsim's peak memory is about the file's size plus
    /// 100 bytes per event (docs/guarantees.md).
    public static let defaultMaxBytes = 256 << 20

    /// Set while an atomic write is in progress, so a timeout can remove the temporary file.
    nonisolated(unsafe) public static var pendingTemporary: UnsafeMutablePointer<CChar>?

    /// The bytes of `path` as `read` gives them, mapped when it is a regular file of at least
    /// `FileContents.mapThreshold` bytes (see `FileContents`).
    public static func contents(_ path: String, maxBytes: Int = defaultMaxBytes) throws(Failure) -> FileContents {
        if path != "-", let info = System.fileInfo(path), info.kind == .regular, info.size >= FileContents.mapThreshold {
            let fd = System.openForReading(path)
            if fd >= 0 {
                defer { System.closeFile(fd) }
                // The size of what was opened, not of what the name held a moment before (an
                // editor's save renames a new file into place).
                if let opened = System.fileInfo(descriptor: fd), opened.kind == .regular,
                   opened.size >= FileContents.mapThreshold, opened.size <= maxBytes,
                   let region = System.mapFile(fd, opened.size) {
                    return FileContents(mapping: region)
                }
            }
        }
        return FileContents(try read(path, maxBytes: maxBytes))
    }

    /// The bytes of `path`; `-` and `/dev/stdin` read standard input. Refuses more than `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(Failure) -> [UInt8] {
        let fd: Int32 = path == "-" ? 0 : System.openForReading(path)
        guard fd >= 0 else { throw Failure(reason: "cannot read: " + lastError()) }
        defer { if fd != 0 { System.closeFile(fd) } }
        let info = System.fileInfo(descriptor: fd)
        if info?.kind == .directory {
            throw Failure(reason: "cannot read: it is a directory")
        }
        if let info, info.kind == .regular, info.size > maxBytes {
            throw tooLarge(maxBytes)
        }
        if let info, info.kind == .regular, info.size > 0 {
            // A regular file: read straight into the array's storage, no copy per chunk.
            let size = info.size
            var failure: String?
            var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                initialized = 0
                if let base = buffer.baseAddress { System.adviseHugePages(UnsafeMutableRawPointer(base), size) }
                while initialized < size, let base = buffer.baseAddress {
                    let n = System.readBytes(fd, base + initialized, size - initialized)
                    if n < 0 && System.errorNumber == System.interrupted { continue }
                    if n < 0 { failure = lastError() }
                    if n <= 0 { break }
                    initialized += n
                }
            }
            if let failure { throw Failure(reason: "cannot read: " + failure) }
            // A file that grew while being read: take the rest too.
            try readRest(fd, into: &bytes, maxBytes: maxBytes)
            return bytes
        }
        var bytes: [UInt8] = []
        try readRest(fd, into: &bytes, maxBytes: maxBytes)
        return bytes
    }

    static func tooLarge(_ maxBytes: Int) -> Failure {
        Failure(reason: "cannot read: larger than \(maxBytes >> 20) MiB (raise the limit with --max-input-mb)")
    }

    /// Appends whatever is left to read from `fd`.
    static func readRest(_ fd: Int32, into bytes: inout [UInt8], maxBytes: Int) throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if System.errorNumber == System.interrupted { continue }
                throw Failure(reason: "cannot read: " + lastError())
            }
            if n == 0 { return }
            if bytes.count + n > maxBytes { throw tooLarge(maxBytes) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Why `readPieces` stopped short: the file ended first (it was cut short or changed since it
    /// was measured), or a read failed (the system's reason, read when it failed: a message made
    /// later would quote whatever call failed last).
    enum ShortRead: Error {
        case ended
        case failed(String)

        /// The reason for an error message about the file.
        var reason: String {
            switch self {
            case .ended: return "it ends before the bytes it should hold (cut short, or changed while popsim read it)"
            case .failed(let why): return "cannot read it: " + why
            }
        }
    }

    /// Reads exactly `count` bytes from `fd`'s position, handing them to `body` in pieces of at
    /// most `piece` bytes (one buffer for them all); nil when all were read, else why not.
    static func readPieces(_ fd: Int32, count: Int, piece: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> ShortRead? {
        var buffer = [UInt8](repeating: 0, count: min(piece, max(1, count)))
        var left = count
        while left > 0 {
            let n = buffer.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, min($0.count, left)) }
            if n < 0, System.errorNumber == System.interrupted { continue }
            if n < 0 { return .failed(System.lastError) }
            if n == 0 { return .ended }
            left -= n
            buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
        return nil
    }

    /// What a folder walk finds at a path: a folder (not through a symlink), a regular file (a
    /// symlink to one counts), something else that exists, or nothing.
    public enum Kind { case directory, regular, other, missing, linkToDirectory }

    public static func kind(of path: String) -> Kind {
        guard var info = System.fileInfo(path, followLinks: false) else { return .missing }
        if info.kind == .symlink {
            guard let target = System.fileInfo(path) else { return .missing }
            if target.kind == .directory { return .linkToDirectory }
            info = target
        }
        switch info.kind {
        case .directory: return .directory
        case .regular: return .regular
        case .symlink, .other: return .other
        }
    }

    /// Whether `path` names a directory.
    public static func isDirectory(_ path: String) -> Bool {
        System.fileInfo(path)?.kind == .directory
    }

    /// Whether `path` exists.
    public static func exists(_ path: String) -> Bool {
        System.fileInfo(path) != nil
    }

    /// The names directly inside `directory`, sorted bytewise.
    public static func list(_ directory: String) throws(Failure) -> [String] {
        guard let names = System.directoryEntries(directory) else { throw Failure(reason: "cannot list: " + lastError()) }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Makes `path` and the folders above it that are missing (`mkdir -p`).
    public static func makeDirectories(_ path: String) throws(Failure) {
        if isDirectory(path) { return }
        if exists(path) { throw Failure(reason: "cannot make a folder: a file is there") }
        if let slash = path.dropLast().lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]))
        }
        if !System.makeDirectory(path) && !isDirectory(path) { throw Failure(reason: "cannot make a folder: " + lastError()) }
    }

    /// `path` (from the working folder) as seen from folder `base` (also from the working folder).
    public static func relativePath(_ path: String, from base: String) -> String {
        let cwd = System.currentDirectory() ?? "/"
        func parts(_ p: String) -> [Substring] {
            var out: [Substring] = []
            for part in ((p.hasPrefix("/") ? "" : cwd + "/") + p).split(separator: "/") {
                switch part {
                case ".": continue
                case "..": if !out.isEmpty { out.removeLast() }
                default: out.append(part)
                }
            }
            return out
        }
        let target = parts(path), from = parts(base)
        var common = 0
        while common < min(target.count, from.count) && target[common] == from[common] { common += 1 }
        let up = Array(repeating: "..", count: from.count - common)
        return (up + target[common...].map(String.init)).joined(separator: "/")
    }

    static func lastError() -> String { System.lastError }
}
