#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Child processes, pipes, waiting and threads: what a plug-in's process needs.
extension System {
    /// A pipe whose both ends are close-on-exec (so no other child inherits them). Made under
    /// the lock every spawn takes: a plug-in started by another thread between `pipe` and
    /// `fcntl` inherited the ends (1 start in 40 under `explore --jobs`).
    public static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        pthread_mutex_lock(descriptorLock)
        defer { pthread_mutex_unlock(descriptorLock) }
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Marks every descriptor popsim inherited beyond 0, 1 and 2 close-on-exec, so a plug-in
    /// gets only its own pipes (a test harness, a CI runner or a shell may leave others open).
    public static func closeInheritedOnExec() {
        let limit = Int32(clamping: min(max(Int(sysconf(Int32(_SC_OPEN_MAX))), 256), 65_536))
        var fd: Int32 = 3
        while fd < limit {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
            fd += 1
        }
    }

    /// Marks every descriptor open now beyond 0, 1 and 2 close-on-exec (Linux: those
    /// `/proc/self/fd` lists), just before a spawn. A process that embeds popsim's core (the test
    /// harness, making pipes for children of its own with Foundation) may hold descriptors open
    /// without it; a plug-in that inherited one kept that other child's output open, and its
    /// reader waited for an end that never came. Another child's redirections are `dup2`s, which
    /// this does not touch.
    static func markOpenDescriptorsCloseOnExec() {
        #if os(Linux)
        guard let dir = opendir("/proc/self/fd") else { return }
        defer { closedir(dir) }
        let own = dirfd(dir)
        while let entry = readdir(dir) {
            let fd = withUnsafeBytes(of: entry.pointee.d_name) { raw -> Int32? in
                Int32(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
            }
            guard let fd, fd > 2, fd != own else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
        #endif
    }

    /// Held while a descriptor is made close-on-exec in two steps and while a child is spawned.
    nonisolated(unsafe) static let descriptorLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// Makes writes to `fd` return at once when the pipe is full.
    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Starts `path` with `arguments` and popsim's environment, `stdin`, `stdout` and `stderr`
    /// as its 0, 1 and 2, in a process group of its own, with no signal blocked and SIGPIPE,
    /// SIGINT, SIGTERM, SIGHUP, SIGALRM and SIGCHLD at their defaults (popsim ignores SIGPIPE and
    /// a Dispatch worker blocks most signals: the child must inherit neither). Returns its id, or
    /// the error number of the failure.
    public static func spawn(_ path: String, arguments: [String] = [], stdin: Int32, stdout: Int32,
                             stderr: Int32) -> Result<ProcessID, SpawnError> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        pthread_mutex_lock(descriptorLock)
        markOpenDescriptorsCloseOnExec()
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, inheritedEnvironment)
        pthread_mutex_unlock(descriptorLock)
        return status == 0 ? .success(pid) : .failure(SpawnError(code: status))
    }

    /// Why a spawn failed: an error number.
    public struct SpawnError: Error, Sendable {
        public var code: Int32
    }

    /// The environment popsim passes on.
    static var inheritedEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }

    /// SIGKILL to a process group: async-signal-safe.
    public static func killGroup(_ group: ProcessID) { _ = kill(-group, SIGKILL) }

    /// SIGKILL to one process.
    public static func killProcess(_ pid: ProcessID) { _ = kill(pid, SIGKILL) }

    /// How a child ended.
    public enum Exit: Sendable, Equatable { case exited(Int32), signalled(Int32) }

    /// Whether child `pid` has ended, without reaping it (its id stays reserved, so its process
    /// group can still be killed safely).
    public static func hasExited(_ pid: ProcessID) -> Bool {
        // `si_signo` is SIGCHLD once a child's state is there; a zeroed `siginfo_t` stays zero
        // when there is none (WNOHANG). Read instead of `si_pid`, which is a union member whose
        // Swift name differs between C libraries.
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// Reaps child `pid` (waiting if it still runs) and says how it ended.
    public static func reap(_ pid: ProcessID) -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }

    /// What `poll` saw on one descriptor.
    public enum PollResult: Sendable { case ready, timedOut, interrupted, failed }

    /// Waits up to `timeoutMs` for `fd` to be readable (or writable).
    public static func poll(_ fd: Int32, writing: Bool = false, timeoutMs: Int) -> PollResult {
        var entry = pollfd(fd: fd, events: Int16(writing ? POLLOUT : POLLIN), revents: 0)
        let ready = pollDescriptors(&entry, 1, Int32(clamping: timeoutMs))
        if ready > 0 { return .ready }
        if ready == 0 { return .timedOut }
        return errno == EINTR ? .interrupted : .failed
    }

    /// Runs `body` on a new detached thread (not a Dispatch worker: for work that blocks for a
    /// long time, such as reading a pipe until it closes). False when no thread could be made.
    public static func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        let started = pthread_create(&thread, nil, { context in
            runThreadBody(context)
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return false
        }
        #if canImport(Glibc)
        pthread_detach(thread)
        #else
        if let thread { pthread_detach(thread) }
        #endif
        return true
    }
}

/// A thread's work, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

private func runThreadBody(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
}

/// `poll(2)`, named apart from `System.poll`.
private func pollDescriptors(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
    poll(fds, nfds_t(count), timeout)
}
