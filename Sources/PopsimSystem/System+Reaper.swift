#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension System {
    /// A watcher that outlives popsim: `/bin/sh` reading `+GROUP` and `-GROUP` lines from a pipe
    /// that only popsim holds. When the pipe closes — popsim exits, or dies by any signal, SIGKILL
    /// included, which no handler of popsim's sees — it kills every process group still listed.
    /// Why not the parent-death signal: Linux sends it when the *thread* that started the child
    /// ends, and plug-ins are started from worker threads that come and go.
    ///
    /// Started with the first plug-in, once per popsim; in a process group of its own, deaf to
    /// the interrupt signals (so Ctrl-C reaches popsim, which stops its plug-ins itself, and not
    /// the watcher), with no descriptor of popsim's but the pipe. Lines are shorter than
    /// `PIPE_BUF`, so writes from several threads never interleave.
    public enum Reaper {
        nonisolated(unsafe) private static var fd: Int32 = -1
        nonisolated(unsafe) private static var unavailable = false
        nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
            let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(lock, nil)
            return lock
        }()

        static let script = """
            trap '' INT HUP TERM QUIT USR1 USR2 PIPE
            groups=' '
            while read -r line; do
              case $line in
                +*) groups="$groups${line#+} " ;;
                -*) g=${line#-}; kept=' '
                    for x in $groups; do [ "$x" = "$g" ] || kept="$kept$x "; done
                    groups=$kept ;;
              esac
            done
            for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
            """

        /// Lists `group` to be killed if popsim dies before it says `forget`.
        public static func watch(_ group: ProcessID) { send("+\(group)\n") }

        /// Takes `group` off the list (popsim reaped it).
        public static func forget(_ group: ProcessID) { send("-\(group)\n") }

        private static func send(_ line: String) {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            if fd < 0 && !unavailable { start() }
            guard fd >= 0 else { return }
            var line = line
            line.withUTF8 { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
        }

        private static func start() {
            unavailable = true
            guard let pipe = makePipe() else { return }
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            let spawned = spawn("/bin/sh", arguments: ["-c", script, "popsim-reaper"], stdin: pipe.read,
                                stdout: null >= 0 ? null : 2, stderr: null >= 0 ? null : 2)
            _ = close(pipe.read)
            if null >= 0 { _ = close(null) }
            guard case .success = spawned else {
                _ = close(pipe.write)
                return
            }
            fd = pipe.write
            unavailable = false
        }
    }
}
