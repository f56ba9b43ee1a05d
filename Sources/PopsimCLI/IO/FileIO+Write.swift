import PopsimCore
import PopsimReports
import PopsimSystem

/// Writing outputs: atomically (a temporary file beside the target, then `rename`), or in place
/// for a target that is a pipe, a terminal or a descriptor popsim already holds.
extension FileIO {
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

    /// Why the last failed write failed (`writeAll` keeps it: a later call may change `errno`);
    /// any thread writes, hence the lock.
    private static let lastFailure = System.Locked(Int32(0))
    public static var lastWriteErrno: Int32 { lastFailure.withLock { $0 } }

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
                let code = n < 0 ? System.errorNumber : System.noSpace
                lastFailure.withLock { $0 = code }
                return false
            }
            offset += n
        }
        return true
    }
}
