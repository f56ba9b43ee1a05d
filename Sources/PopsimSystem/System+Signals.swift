#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals: the handlers that stop popsim cleanly, and the `--timeout` alarm.
extension System {
    /// A handler that may only call async-signal-safe functions.
    public typealias SignalHandler = @convention(c) (Int32) -> Void

    public static let interruptSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2]
    public static let alarmSignal = SIGALRM

    /// Installs `handler` for each of `signals` and unblocks them (a parent, such as a test runner
    /// or a CI agent, may have left them blocked for its children).
    public static func handle(_ signals: [Int32], with handler: SignalHandler) {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in signals {
            signal(sig, handler)
            sigaddset(&set, sig)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Writes to a closed pipe fail with EPIPE instead of killing popsim.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// SIGALRM after `seconds`.
    public static func scheduleAlarm(seconds: Int) { _ = alarm(UInt32(clamping: seconds)) }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, else `signal N`: for messages.
    public static func signalName(_ code: Int32) -> String {
        switch code {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(code)"
        }
    }
}
