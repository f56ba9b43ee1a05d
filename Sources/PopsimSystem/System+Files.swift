#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders.
extension System {
    /// What is at a path.
    public enum FileKind: Sendable { case directory, regular, symlink, other }

    /// The facts `stat` gives that popsim reads.
    public struct FileInfo: Sendable {
        public var kind: FileKind
        public var size: Int
        /// The permission bits (`0o7777`).
        public var permissions: UInt32
        /// The device and inode: the same file by any name (a link, a hard link, `./`).
        public var device: UInt64 = 0
        public var inode: UInt64 = 0
    }

    static func info(_ s: stat) -> FileInfo {
        let kind: FileKind
        switch s.st_mode & S_IFMT {
        case S_IFDIR: kind = .directory
        case S_IFREG: kind = .regular
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        return FileInfo(kind: kind, size: Int(s.st_size), permissions: UInt32(s.st_mode & 0o7777),
                        device: UInt64(truncatingIfNeeded: s.st_dev), inode: UInt64(truncatingIfNeeded: s.st_ino))
    }

    /// `stat` (through symlinks) or `lstat` (`followLinks: false`); nil when nothing is there.
    public static func fileInfo(_ path: String, followLinks: Bool = true) -> FileInfo? {
        var s = stat()
        let status = followLinks ? stat(path, &s) : lstat(path, &s)
        return status == 0 ? info(s) : nil
    }

    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, before popsim opens
    /// anything: else the first file it opens (a catalog) would take descriptor 0 and be read as
    /// standard input (`replay -` with stdin closed; issue 41).
    public static func openStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != fd { _ = close(opened) }
        }
    }

    /// `fstat` of an open file.
    public static func fileInfo(descriptor fd: Int32) -> FileInfo? {
        var s = stat()
        return fstat(fd, &s) == 0 ? info(s) : nil
    }

    public static func canWrite(_ path: String) -> Bool { access(path, W_OK) == 0 }
    public static func canExecute(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Opens `path` for reading; -1 on failure (`lastError` says why). Every descriptor popsim
    /// opens is close-on-exec from the start: a plug-in inherits only its own pipes.
    public static func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

    /// Opens an existing `path` for appending (a device, FIFO or socket); -1 on failure.
    public static func openForAppending(_ path: String) -> Int32 { open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }

    public static func closeFile(_ fd: Int32) { _ = close(fd) }

    /// `read(2)`: bytes read, 0 at the end, -1 on failure.
    public static func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        read(fd, buffer, count)
    }

    /// `write(2)`: bytes written, -1 on failure.
    public static func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        write(fd, buffer, count)
    }

    /// Writes a C string from a signal handler (async-signal-safe).
    public static func writeRaw(_ fd: Int32, _ text: UnsafePointer<CChar>) {
        _ = write(fd, text, strlen(text))
    }

    /// The permissions a new file gets under the umask (`0o666 & ~umask`).
    public static func newFilePermissions() -> UInt32 {
        let mask = umask(0)
        umask(mask)
        return UInt32(0o666 & ~mask)
    }

    /// A new empty file `<directory>/.popsim-XXXXXX`, open for writing: its descriptor and path.
    public static func makeTemporary(in directory: String) -> (fd: Int32, path: String)? {
        var template = Array(directory.utf8CString.dropLast()) + Array("/.popsim-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            pthread_mutex_lock(descriptorLock)
            defer { pthread_mutex_unlock(descriptorLock) }
            let fd = mkstemp(base)
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return fd
        }
        guard fd >= 0 else { return nil }
        return (fd, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// To byte `offset` of an open file.
    public static func seek(_ fd: Int32, to offset: Int) -> Bool { lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) }

    /// Back to the start of an open file (to read back what was written).
    public static func rewind(_ fd: Int32) -> Bool { lseek(fd, 0, SEEK_SET) == 0 }

    public static func setPermissions(_ fd: Int32, _ permissions: UInt32) { _ = fchmod(fd, mode_t(permissions)) }

    public static func renameFile(_ from: String, to: String) -> Bool { rename(from, to) == 0 }

    public static func removeFile(_ path: String) { _ = unlink(path) }

    /// `unlink` of a C string, from a signal handler (async-signal-safe).
    public static func removeFile(_ path: UnsafePointer<CChar>) { _ = unlink(path) }

    /// Creates a folder (mode 0777 under the umask); false with `lastError` on failure.
    public static func makeDirectory(_ path: String) -> Bool { mkdir(path, 0o777) == 0 }

    /// A symlink's target as written, or nil.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a folder (without `.` and `..`), unsorted; nil with `lastError` on failure.
    public static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The working folder, absolute.
    public static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A copy of `text` as a C string that lives until `free` (for signal handlers to read).
    public static func cString(_ text: String) -> UnsafeMutablePointer<CChar>? { strdup(text) }

    /// Frees what `cString` made.
    public static func freeCString(_ pointer: UnsafeMutablePointer<CChar>?) { freeMemory(pointer) }
}

/// `free(3)`, named apart from `System.free`.
private func freeMemory(_ pointer: UnsafeMutablePointer<CChar>?) { free(pointer) }
