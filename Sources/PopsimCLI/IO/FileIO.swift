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

    /// Lets `body` write `path` through a buffered writer, atomically (temporary file, then
    /// rename); when `body` returns false nothing is left behind.
    public static func writeAtomically(to path: String, _ body: (inout ByteWriter) -> Bool) throws(Failure) {
        let directory = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
        var template = Array((directory.isEmpty ? "/" : directory).utf8CString.dropLast()) + Array("/.popsim-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw Failure(reason: "cannot write: " + lastError()) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        pendingTemporary = strdup(temporary)
        defer {
            free(pendingTemporary)
            pendingTemporary = nil
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
            let reason = lastError()
            close(fd)
            unlink(temporary)
            throw Failure(reason: "cannot write: " + reason)
        }
        fchmod(fd, 0o644)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = lastError()
            unlink(temporary)
            throw Failure(reason: "cannot write: " + reason)
        }
    }

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
            if n <= 0 { return false }
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
