#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PopsimCore

/// One spawn at a time (see `PluginProcess.start`).
private let spawnLock = DispatchSemaphore(value: 1)

/// A plug-in strategy's process (docs/plugin-protocol.md): its stdin and stdout carry the
/// protocol's lines, its stderr is kept (the last line goes into an error message).
///
/// Contract: every wait is bounded — each reply by `timeoutMs`, each write likewise, the exit at
/// `close` by one second — so a plug-in that hangs, crashes or floods cannot hang popsim; a
/// process that outlives them is killed. No descriptor leaks into other children (all are
/// close-on-exec), so parallel runs (`check --jobs`) each talk to their own plug-in.
final class PluginProcess: PluginChannel {
    /// A reply longer than this is refused (the protocol's lines are short).
    static let maxLineBytes = 16 << 20

    let path: String
    let timeoutMs: Int
    private let pid: pid_t
    private var input: Int32
    private var output: Int32
    private let stderr: StderrTail
    private var buffer: [UInt8] = []
    /// What each read fills (kept: a fresh 64 KiB array per read would cost more than the read).
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private var line: [UInt8] = []
    private var reaped = false

    private init(path: String, timeoutMs: Int, pid: pid_t, input: Int32, output: Int32, stderr: StderrTail) {
        self.path = path
        self.timeoutMs = timeoutMs
        self.pid = pid
        self.input = input
        self.output = output
        self.stderr = stderr
    }

    /// Starts `path` with no arguments, its stdin and stdout piped to popsim.
    static func start(_ path: String, timeoutMs: Int) throws(PluginFailure) -> PluginProcess {
        if let problem = Self.unstartable(path) { throw PluginFailure("cannot be started: \(problem)") }
        // Pipes are made close-on-exec and the child spawned under one lock, so a plug-in started
        // at the same time by another thread never inherits this one's pipes.
        spawnLock.wait()
        defer { spawnLock.signal() }
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1], errFromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errFromChild) == 0 else {
            for fd in toChild + fromChild + errFromChild where fd >= 0 { Glibc.close(fd) }
            throw PluginFailure("cannot be started: no pipe (\(String(cString: strerror(errno))))")
        }
        for fd in toChild + fromChild + errFromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errFromChild[1], 2)
        // Its own process group, so that stopping it stops what it started too (a shell's `sleep`).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A clean signal state: popsim ignores SIGPIPE and a Dispatch worker blocks most signals;
        // the plug-in must not inherit either (its behaviour would depend on --jobs).
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { for a in argv { free(a) } }
        // "Text file busy": the file was just written and a process forked meanwhile (anywhere on
        // the machine) still holds it open for writing; that passes in moments, so try again.
        var status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        for _ in 0..<100 where status == ETXTBSY {
            usleep(10_000)
            status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        for fd in [toChild[0], fromChild[1], errFromChild[1]] { Glibc.close(fd) }
        guard status == 0 else {
            for fd in [toChild[1], fromChild[0], errFromChild[0]] { Glibc.close(fd) }
            throw PluginFailure("cannot be started: \(String(cString: strerror(status)))")
        }
        _ = fcntl(toChild[1], F_SETFL, fcntl(toChild[1], F_GETFL) | O_NONBLOCK)
        PluginGroups.add(pid)
        return PluginProcess(path: path, timeoutMs: timeoutMs, pid: pid, input: toChild[1], output: fromChild[0],
                             stderr: StderrTail(fd: errFromChild[0]))
    }

    /// Why `path` cannot run, before trying: missing, a folder, not executable.
    static func unstartable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return "it is a directory" }
        if access(path, X_OK) != 0 { return "it is not executable (chmod +x \(path))" }
        return nil
    }

    /// The plug-in's first line: its handshake.
    func hello() throws(PluginFailure) -> PluginHello {
        let line = try readLine(handshake: true)
        do {
            return try PluginHello.parse(line)
        } catch {
            throw PluginFailure(error.message + ": " + String(decoding: line.prefix(300), as: UTF8.self) + (line.count > 300 ? "…" : ""))
        }
    }

    func exchange(_ line: [UInt8]) throws(PluginFailure) -> [UInt8] {
        PluginStats.count()
        try write(line)
        let reply = try readLine()
        // A second line already there is a reply to nothing: it would answer the next happening.
        if let extra = buffer.split(separator: 0x0A).first, !extra.isEmpty {
            throw PluginFailure("it wrote more than one line in reply (the second: "
                + String(decoding: extra.prefix(200), as: UTF8.self) + "); debugging output belongs on stderr")
        }
        return reply
    }

    func close() {
        if input >= 0 { Glibc.close(input); input = -1 }
        if !reaped {
            if waitForExit(ms: 1000) == nil {
                stop()
                _ = waitForExit(ms: 1000)
            }
        }
        if output >= 0 { Glibc.close(output); output = -1 }
        stderr.finish()
    }

    deinit { close() }

    // MARK: Lines

    private func write(_ line: [UInt8]) throws(PluginFailure) {
        self.line.removeAll(keepingCapacity: true)
        self.line.append(contentsOf: line)
        self.line.append(0x0A)
        let bytes = self.line
        var sent = 0
        var deadline: Int?
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in raw.baseAddress.map { Glibc.write(input, $0 + sent, bytes.count - sent) } ?? -1 }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                var fd = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
                let end = deadline ?? Self.now() + timeoutMs
                deadline = end
                let left = end - Self.now()
                if left <= 0 { throw timedOut() }
                _ = poll(&fd, 1, Int32(clamping: left))
                continue
            }
            throw ended()
        }
    }

    private func readLine(handshake: Bool = false) throws(PluginFailure) -> [UInt8] {
        var deadline: Int?
        var scanned = 0
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line.last == 0x0D ? Array(line.dropLast()) : line
            }
            scanned = buffer.count
            if buffer.count > Self.maxLineBytes { throw PluginFailure("its reply is longer than \(Self.maxLineBytes >> 20) MiB") }
            var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            var left = timeoutMs
            if let deadline {
                left = deadline - Self.now()
                if left <= 0 { throw timedOut(handshake) }
            } else {
                deadline = Self.now() + timeoutMs
            }
            let ready = poll(&fd, 1, Int32(clamping: left))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { throw timedOut(handshake) }
            let n = chunk.withUnsafeMutableBytes { raw in raw.baseAddress.map { Glibc.read(output, $0, raw.count) } ?? -1 }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw ended(handshake) }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    // MARK: Failures

    private func timedOut(_ handshake: Bool = false) -> PluginFailure {
        stop()
        _ = waitForExit(ms: 1000)
        let seconds = timeoutMs % 1000 == 0 ? "\(timeoutMs / 1000) s" : "\(timeoutMs) ms"
        return PluginFailure((handshake ? "it sent no handshake within " : "it did not answer within ") + seconds
            + "; it was stopped (--plugin-timeout sets the limit)")
    }

    /// Its stdout closed: it exited (or closed it) before answering.
    private func ended(_ handshake: Bool = false) -> PluginFailure {
        let status = waitForExit(ms: 1000)
        let before = handshake ? "before its handshake" : "before answering"
        var what: String
        switch status {
        case .exited(let code)?: what = "it exited with status \(code) \(before)"
        case .signalled(let signal)?: what = "it was killed by signal \(signal) \(before)"
        case nil:
            stop()
            _ = waitForExit(ms: 1000)
            what = "it closed its output \(before); it was stopped"
        }
        stderr.finish()
        if let last = stderr.lastLine { what += " (its stderr: \(last))" }
        return PluginFailure(what)
    }

    /// Kills the plug-in and everything in its process group.
    private func stop() {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    enum Exit { case exited(Int32), signalled(Int32) }

    /// Waits up to `ms` for the process to end; its status, or nil if it still runs. Once it has
    /// exited, and before it is reaped (so its id cannot have been reused), whatever it left
    /// running in its process group is killed.
    private func waitForExit(ms: Int) -> Exit? {
        if reaped { return .exited(-1) }
        let deadline = Self.now() + ms
        while true {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid {
                kill(-pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                reaped = true
                PluginGroups.remove(pid)
                if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
                return .signalled(status & 0x7F)
            }
            if Self.now() >= deadline { return nil }
            usleep(1000)
        }
    }

    static func now() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
    }
}

/// The end of a plug-in's stderr, read by a thread of its own so that a plug-in writing much
/// there never blocks; its last line goes into error messages.
final class StderrTail: @unchecked Sendable {
    private let fd: Int32
    private let lock = DispatchSemaphore(value: 1)
    private var tail: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    init(fd: Int32) {
        self.fd = fd
        // A thread of its own (not a Dispatch worker: it blocks in read for the plug-in's life).
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<StderrTail>.fromOpaque(context).takeRetainedValue().drain()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<StderrTail>.fromOpaque(context).release()
            Glibc.close(fd)
            done.signal()
        }
    }

    private func drain() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { raw in raw.baseAddress.map { Glibc.read(fd, $0, raw.count) } ?? -1 }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            lock.wait()
            tail.append(contentsOf: chunk[..<n])
            if tail.count > 8192 { tail.removeFirst(tail.count - 4096) }
            lock.signal()
        }
        Glibc.close(fd)
        done.signal()
    }

    /// Waits (up to a second) for the plug-in's stderr to close.
    func finish() {
        lock.wait()
        let already = finished
        finished = true
        lock.signal()
        if !already { _ = done.wait(timeout: .now() + 1) }
    }

    /// Its last non-empty line, at most 200 characters.
    var lastLine: String? {
        lock.wait()
        defer { lock.signal() }
        let text = String(decoding: tail, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        return line.count > 200 ? String(line.prefix(200)) + "…" : String(line)
    }
}
