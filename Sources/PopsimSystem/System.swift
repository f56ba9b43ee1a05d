#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// popsim's one door to the C library: every call to libc goes through here, so the rest of the
/// package compiles unchanged against Glibc, Musl and Darwin (a test fails if any other file
/// imports a C library or names one, as in `Glibc.close`).
///
/// Contract: thin wrappers with Swift types; no policy (retries, timeouts and messages belong to
/// the callers), except where a platform difference must be hidden. The functions a signal
/// handler calls (`writeRaw`, `removeFile(_: UnsafePointer<CChar>)`, `killGroup`, `exitNow`) are
/// async-signal-safe: no allocation, no lock.
public enum System {
    public typealias ProcessID = Int32

    /// The calling thread's last error number.
    public static var errorNumber: Int32 { errno }

    /// `strerror`: a one-line reason for an error number.
    public static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The reason for the last error (`errno`).
    public static var lastError: String { describe(errno) }

    public static let interrupted = EINTR
    public static let wouldBlock = EAGAIN
    public static let brokenPipe = EPIPE
    public static let noSpace = ENOSPC
    public static let textBusy = ETXTBSY

    /// Online processors, for the default number of jobs.
    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// A monotonic clock in milliseconds (for deadlines; never for output).
    public static func monotonicMs() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int(ts.tv_sec) * 1000 + Int(ts.tv_nsec) / 1_000_000
    }

    /// A monotonic clock in microseconds (for measuring; never for output a user compares).
    public static func monotonicUs() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1_000
    }

    public static func sleep(microseconds: Int) { usleep(useconds_t(clamping: microseconds)) }

    /// Lets another thread run on this processor (a thread waiting on another's brief work).
    public static func yield() { sched_yield() }

    /// An environment variable's value.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The width of the terminal on `fd`, when it is one and says.
    public static func terminalColumns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// This process's CPU time so far, in microseconds: user space and kernel.
    public static func cpuTime() -> (user: Int, system: Int) {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return (Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec),
                Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec))
    }

    /// Ends the process with `code` (buffers of the C library flushed).
    public static func terminate(_ code: Int32) -> Never { exit(code) }

    /// Ends the process at once, from a signal handler (nothing flushed).
    public static func exitNow(_ code: Int32) -> Never { _exit(code) }
}
