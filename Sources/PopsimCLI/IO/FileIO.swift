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

    /// Writes `text` to `path` atomically (temporary file, then rename).
    public static func writeAtomically(_ text: String, to path: String) throws(Failure) {
        try writeAtomically(to: path) { writer in
            writer.write(text)
            return true
        }
    }

    /// Lets `body` write `path` through a buffered writer; when `body` returns false nothing is
    /// left behind.
    ///
    /// A regular file (or a new one) is written atomically: a temporary file beside it, then
    /// `rename`, keeping an existing file's mode and giving a new one the umask's. A symlink is
    /// followed: its target is written. Anything else that exists (`/dev/null`, `/dev/stdout`, a
    /// FIFO, a socket) is opened and written directly, never replaced. A read-only file is refused
    /// unless the user could write it itself.
    public static func writeAtomically(to path: String, _ body: (inout ByteWriter) -> Bool) throws(Failure) {
        // `/dev/stdout` and its kin name what the shell opened (a pipe, or `>> build.log`):
        // written in place through the path, never replaced by a new file.
        if namesOpenDescriptor(path) { return try writeDirectly(to: path, body) }
        let target = resolved(path)
        let info = System.fileInfo(target)
        if info?.kind == .directory { throw Failure(reason: "cannot write: it is a directory") }
        if let info, info.kind != .regular { return try writeDirectly(to: target, body) }
        if info != nil && !System.canWrite(target) { throw Failure(reason: "cannot write: " + lastError()) }
        let permissions = info?.permissions ?? System.newFilePermissions()
        let directory = target.contains("/") ? String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)]) : "."
        guard let made = System.makeTemporary(in: directory.isEmpty ? "/" : directory) else {
            throw Failure(reason: "cannot write: " + lastError())
        }
        let fd = made.fd, temporary = made.path
        pendingTemporary = System.cString(temporary)
        defer {
            let pending = pendingTemporary
            pendingTemporary = nil
            System.freeCString(pending)
        }
        var writer = ByteWriter(sink: FileIO.sink(fd))
        let commit = body(&writer)
        writer.flush()
        guard commit else {
            System.closeFile(fd)
            System.removeFile(temporary)
            return
        }
        guard !writer.failed else {
            let reason = lastWriteError
            System.closeFile(fd)
            System.removeFile(temporary)
            throw Failure(reason: "cannot write: " + reason)
        }
        System.setPermissions(fd, permissions)
        System.closeFile(fd)
        guard System.renameFile(temporary, to: target) else {
            let reason = lastError()
            System.removeFile(temporary)
            throw Failure(reason: "cannot write: " + reason)
        }
    }

    /// A device, FIFO or socket, or an open descriptor by name: written as it is, appending
    /// (nothing to make atomic, nothing to replace).
    static func writeDirectly(to target: String, _ body: (inout ByteWriter) -> Bool) throws(Failure) {
        let fd = System.openForAppending(target)
        guard fd >= 0 else { throw Failure(reason: "cannot write: " + lastError()) }
        defer { System.closeFile(fd) }
        var writer = ByteWriter(sink: FileIO.sink(fd))
        _ = body(&writer)
        writer.flush()
        if writer.failed { throw Failure(reason: "cannot write: " + lastWriteError) }
    }

    /// Whether `path`, or a link on the way from it, is one of a process's open descriptors
    /// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N`).
    static func namesOpenDescriptor(_ path: String) -> Bool {
        links(from: path).contains { hop in
            let parts = hop.split(separator: "/", omittingEmptySubsequences: true)
            return ["/dev/stdout", "/dev/stderr"].contains(hop) || hop.hasPrefix("/dev/fd/")
                || (hop.hasPrefix("/proc/") && parts.count == 4 && parts[2] == "fd")
        }
    }

    /// The path a write goes to: a symlink's target (followed to its end, even when it does not
    /// exist yet), else the path itself.
    static func resolved(_ path: String) -> String {
        links(from: path).last ?? path
    }

    /// `path`, then each symlink's target on the way from it (at most 40 links).
    static func links(from path: String) -> [String] {
        var hops = [path]
        for _ in 0..<40 {
            let current = hops[hops.count - 1]
            guard System.fileInfo(current, followLinks: false)?.kind == .symlink,
                  let link = System.linkTarget(current) else { break }
            hops.append(link.hasPrefix("/") || !current.contains("/")
                ? link : String(current[..<(current.lastIndex(of: "/") ?? current.startIndex)]) + "/" + link)
        }
        return hops
    }

    /// Why the last failed write failed (`writeAll` keeps it: a later call may change `errno`).
    nonisolated(unsafe) public static var lastWriteErrno: Int32 = 0

    static var lastWriteError: String { System.describe(lastWriteErrno) }

    /// Writes all of `text` to `fd`, retrying short and interrupted writes; false on failure.
    @discardableResult
    public static func writeAll(_ text: String, to fd: Int32) -> Bool {
        writeAll(Array(text.utf8), to: fd)
    }

    /// Writes all of `bytes` to `fd`, retrying short and interrupted writes; false on failure.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBufferPointer { writeAll($0, to: fd) }
    }

    /// A `ByteWriter` sink that writes to `fd`.
    public static func sink(_ fd: Int32) -> ByteWriter.Sink {
        { writeAll($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd`, retrying short and interrupted writes; false on failure.
    @discardableResult
    public static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let n = System.writeBytes(fd, base + offset, bytes.count - offset)
            if n < 0 && System.errorNumber == System.interrupted { continue }
            if n <= 0 {
                lastWriteErrno = n < 0 ? System.errorNumber : System.noSpace
                return false
            }
            offset += n
        }
        return true
    }

    static func lastError() -> String { System.lastError }
}
