// The thin executable: hands the arguments to the library, writes its output, exits.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PopsimCLI

var environment: [String: String] = [:]
for name in ["NO_COLOR", "TERM", "CI", "COLUMNS", "LC_ALL", "LC_CTYPE", "LANG", "POPSIM_PLUGIN_STATS"] {
    if let value = getenv(name) { environment[name] = String(cString: value) }
}
/// The line the timeout prints, prepared when the guard is armed (a signal handler may only
/// call async-signal-safe functions: write, unlink, _exit).
nonisolated(unsafe) var timeoutMessage: UnsafeMutablePointer<CChar>?

/// `--timeout`: after `seconds`, say so, remove a half-written output file and exit 2.
let armTimeout: @Sendable (Int) -> Void = { seconds in
    timeoutMessage = strdup("popsim: timed out after \(seconds) s (raise or disable the limit with --timeout)\n")
    signal(SIGALRM) { _ in
        if let message = timeoutMessage { _ = write(2, message, strlen(message)) }
        if let temporary = FileIO.pendingTemporary { unlink(temporary) }
        PluginGroups.killAll()
        _exit(2)
    }
    // A parent (a test runner, a CI agent) may have left SIGALRM blocked for its children.
    var alarmOnly = sigset_t()
    sigemptyset(&alarmOnly)
    sigaddset(&alarmOnly, SIGALRM)
    pthread_sigmask(SIG_UNBLOCK, &alarmOnly, nil)
    alarm(UInt32(clamping: seconds))
}

PluginGroups.prepare()

/// SIGINT, SIGTERM, SIGHUP: remove a half-written output file, stop the plug-ins, then exit with
/// 128 + the signal.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for sig in [SIGINT, SIGTERM, SIGHUP] {
    signal(sig) { received in
        if let temporary = FileIO.pendingTemporary { unlink(temporary) }
        PluginGroups.killAll()
        _exit(128 + received)
    }
    sigaddset(&stopSignals, sig)
}
// A parent (a test runner, a CI agent) may have left them blocked for its children.
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

signal(SIGPIPE, SIG_IGN)
var console = Console(stdoutIsTerminal: isatty(1) == 1, environment: environment, stdoutFD: 1)
console.armTimeout = armTimeout
if isatty(2) == 1 { console.progressSink = { text in FileIO.writeAll(text, to: 2) } }
console.errorSink = { text in FileIO.writeAll(text, to: 2) }
var size = winsize()
if console.stdoutIsTerminal, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { console.terminalColumns = Int(size.ws_col) }
let code = Popsim.main(Array(CommandLine.arguments.dropFirst()), console: &console)

console.output.flush()
FileIO.writeAll(console.stderr, to: 2)
if environment["POPSIM_PLUGIN_STATS"] != nil { FileIO.writeAll(PluginStats.summary(), to: 2) }
// A report that could not be written is a failure (a full disk, a closed descriptor); a reader
// that went away (`| head`) ends popsim quietly.
if console.output.failed && FileIO.lastWriteErrno != EPIPE {
    FileIO.writeAll("popsim: cannot write to standard output: \(String(cString: strerror(FileIO.lastWriteErrno)))\n", to: 2)
    exit(code == .internalError ? code.rawValue : ExitCode.badInput.rawValue)
}
exit(code.rawValue)
