// The thin executable: hands the arguments to the library, writes its output, exits.
import PopsimCLI
import PopsimCore
import PopsimSystem

// Before any file is opened: a closed standard descriptor gets /dev/null, so no file takes its number.
System.openStandardDescriptors()
// Before any thread: the core's large arrays ask for huge pages (LargeBuffer).
LargeBuffer.advise = { System.adviseHugePages($0, $1) }

var environment: [String: String] = [:]
for name in ["NO_COLOR", "TERM", "CI", "COLUMNS", "LC_ALL", "LC_CTYPE", "LANG", "POPSIM_PLUGIN_STATS", "TMPDIR"] {
    if let value = System.environment(name) { environment[name] = value }
}
/// The line the timeout prints, prepared when the guard is armed (a signal handler may only
/// call async-signal-safe functions: write, unlink, _exit).
nonisolated(unsafe) var timeoutMessage: UnsafeMutablePointer<CChar>?

/// Said when a clean stop was asked (a signal handler cannot build strings).
nonisolated(unsafe) let stoppingMessage = System.cString("popsim: stopping: reporting what was done (again to stop at once)\n")
nonisolated(unsafe) let lateMessage = System.cString("popsim: the work did not stop in time; stopped at once\n")
nonisolated(unsafe) let busMessage = System.cString("popsim: cannot read: an input file was cut short while popsim read it (a bus error)\n")

/// `--timeout`: after `seconds`, say so; a command that can stop cleanly (explore, check) then
/// reports what it did, marked incomplete (StopRequest); otherwise, and when that stop does not
/// come in time, remove a half-written output file and exit 2.
let armTimeout: @Sendable (Int) -> Void = { seconds in
    timeoutMessage = System.cString("popsim: timed out after \(seconds) s (raise or disable the limit with --timeout)\n")
    System.handle([System.alarmSignal]) { _ in
        if StopRequest.request(-1) {
            if let message = timeoutMessage { System.writeRaw(2, message) }
            System.scheduleAlarm(seconds: StopRequest.graceSeconds)
            return
        }
        if let message = StopRequest.isRequested ? lateMessage : timeoutMessage { System.writeRaw(2, message) }
        if let temporary = FileIO.pendingTemporary { System.removeFile(UnsafePointer(temporary)) }
        PluginGroups.killAll()
        System.exitNow(2)
    }
    System.scheduleAlarm(seconds: seconds)
}

System.closeInheritedOnExec()
PluginGroups.prepare()
StopRequest.prepare()

/// SIGINT, SIGTERM, SIGHUP (and SIGQUIT, SIGUSR1, SIGUSR2, which would otherwise end popsim with
/// a crash report and leave its plug-ins running): a command that can stop cleanly reports what it did (the first
/// time); otherwise remove a half-written output file, stop the plug-ins, then exit with
/// 128 + the signal.
System.handle(System.interruptSignals) { received in
    if StopRequest.request(received) {
        if let message = stoppingMessage { System.writeRaw(2, message) }
        System.handle([System.alarmSignal]) { _ in
            if let message = lateMessage { System.writeRaw(2, message) }
            if let temporary = FileIO.pendingTemporary { System.removeFile(UnsafePointer(temporary)) }
            PluginGroups.killAll()
            System.exitNow(2)
        }
        System.scheduleAlarm(seconds: StopRequest.graceSeconds)
        return
    }
    if let temporary = FileIO.pendingTemporary { System.removeFile(UnsafePointer(temporary)) }
    PluginGroups.killAll()
    System.exitNow(128 + received)
}
System.ignoreBrokenPipes()
/// SIGBUS: a mapped input file (FileContents, a trace's chunks in TraceSource) was cut short while popsim read it.
System.handle([System.busErrorSignal]) { _ in
    if let message = busMessage { System.writeRaw(2, message) }
    if let temporary = FileIO.pendingTemporary { System.removeFile(UnsafePointer(temporary)) }
    PluginGroups.killAll()
    System.exitNow(2)
}

var console = Console(stdoutIsTerminal: System.isTerminal(1), environment: environment, stdoutFD: 1)
console.armTimeout = armTimeout
if System.isTerminal(2) { console.progressSink = { text in FileIO.writeAll(text, to: 2) } }
console.errorSink = { text in FileIO.writeAll(text, to: 2) }
if console.stdoutIsTerminal, let columns = System.terminalColumns(1) { console.terminalColumns = columns }
let code = Popsim.main(Array(CommandLine.arguments.dropFirst()), console: &console)

console.output.flush()
FileIO.writeAll(console.stderr, to: 2)
if environment["POPSIM_PLUGIN_STATS"] != nil { FileIO.writeAll(PluginStats.summary(), to: 2) }
if ReplayStats.enabled { FileIO.writeAll(ReplayStats.summary(), to: 2) }
// A report that could not be written is a failure (a full disk, a closed descriptor); a reader
// that went away (`| head`) ends popsim quietly.
if console.output.failed && FileIO.lastWriteErrno != System.brokenPipe {
    FileIO.writeAll("popsim: cannot write to standard output: \(System.describe(FileIO.lastWriteErrno))\n", to: 2)
    System.terminate(code == .internalError ? code.rawValue : ExitCode.badInput.rawValue)
}
System.terminate(code.rawValue)
