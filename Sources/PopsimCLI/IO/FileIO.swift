#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PopsimCore
import PopsimReports

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

    /// The bytes of `path`; `-` and `/dev/stdin` read standard input. Refuses more than `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(Failure) -> [UInt8] {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(reason: "cannot read: " + lastError()) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(reason: "cannot read: it is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > maxBytes {
            throw tooLarge(maxBytes)
        }
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            // A regular file: read straight into the array's storage, no copy per chunk.
            let size = Int(info.st_size)
            var failure: String?
            var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                initialized = 0
                while initialized < size, let base = buffer.baseAddress {
                    let n = posixRead(fd, base + initialized, size - initialized)
                    if n < 0 && errno == EINTR { continue }
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
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
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
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &info) == 0 else { return .missing }
            if (info.st_mode & S_IFMT) == S_IFDIR { return .linkToDirectory }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// Whether `path` names a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` exists.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The regular files directly inside `directory`, sorted by name (bytewise).
    public static func list(_ directory: String) throws(Failure) -> [String] {
        guard let dir = opendir(directory) else { throw Failure(reason: "cannot list: " + lastError()) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
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
        let target = resolved(path)
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists && (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(reason: "cannot write: it is a directory") }
        if exists && (info.st_mode & S_IFMT) != S_IFREG { return try writeDirectly(to: target, body) }
        if exists && access(target, W_OK) != 0 { throw Failure(reason: "cannot write: " + lastError()) }
        let mode: mode_t
        if exists {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        let directory = target.contains("/") ? String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)]) : "."
        var template = Array((directory.isEmpty ? "/" : directory).utf8CString.dropLast()) + Array("/.popsim-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw Failure(reason: "cannot write: " + lastError()) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        pendingTemporary = strdup(temporary)
        defer {
            let pending = pendingTemporary
            pendingTemporary = nil
            free(pending)
        }
        var writer = ByteWriter(sink: FileIO.sink(fd))
        let commit = body(&writer)
        writer.flush()
        guard commit else {
            close(fd)
            unlink(temporary)
            return
        }
        guard !writer.failed else {
            let reason = lastWriteError
            close(fd)
            unlink(temporary)
            throw Failure(reason: "cannot write: " + reason)
        }
        fchmod(fd, mode)
        close(fd)
        guard rename(temporary, target) == 0 else {
            let reason = lastError()
            unlink(temporary)
            throw Failure(reason: "cannot write: " + reason)
        }
    }

    /// A device, FIFO or socket: written as it is (nothing to make atomic, nothing to replace).
    static func writeDirectly(to target: String, _ body: (inout ByteWriter) -> Bool) throws(Failure) {
        let fd = open(target, O_WRONLY | O_APPEND)
        guard fd >= 0 else { throw Failure(reason: "cannot write: " + lastError()) }
        defer { close(fd) }
        var writer = ByteWriter(sink: FileIO.sink(fd))
        _ = body(&writer)
        writer.flush()
        if writer.failed { throw Failure(reason: "cannot write: " + lastWriteError) }
    }

    /// The path a write goes to: a symlink's target (followed to its end, even when it does not
    /// exist yet), else the path itself.
    static func resolved(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") || !current.contains("/") {
                current = link
            } else {
                current = String(current[..<(current.lastIndex(of: "/") ?? current.startIndex)]) + "/" + link
            }
        }
        return current
    }

    /// Why the last failed write failed (`writeAll` keeps it: a later call may change `errno`).
    nonisolated(unsafe) public static var lastWriteErrno: Int32 = 0

    static var lastWriteError: String { String(cString: strerror(lastWriteErrno)) }

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
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                lastWriteErrno = n < 0 ? errno : ENOSPC
                return false
            }
            offset += n
        }
        return true
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// `read(2)`, named apart from `FileIO.read`.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
