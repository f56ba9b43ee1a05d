import Dispatch
import PopsimCore
import PopsimSystem

/// One spawn at a time (see `PluginProcess.start`).
private let spawnLock = System.Locked(())

/// A plug-in strategy's process (docs/plugin-protocol.md): its stdin and stdout carry the
/// protocol's lines, its stderr is kept (the last line goes into an error message).
///
/// Contract: every wait is bounded — each reply by `timeoutMs`, each write likewise, the exit at
/// `close` by one second — so a plug-in that hangs, crashes or floods cannot hang popsim; a
/// process that outlives them is killed. No descriptor leaks into other children (all are
/// close-on-exec), so parallel runs (`check --jobs`) each talk to their own plug-in.
///
/// `@unchecked Sendable`, audited: one run uses a process at a time — it is started for a run,
/// or leased from its pool (`PluginPool`) and given back when the run is done — so its mutable
/// state (descriptors, buffers) is touched by one thread at a time; what several threads read is
/// `let` or behind `StderrTail`'s lock.
final class PluginProcess: PluginChannel, @unchecked Sendable {
    /// A reply longer than this is refused (the protocol's lines are short).
    static let maxLineBytes = 16 << 20

    let path: String
    let timeoutMs: Int
    private let pid: System.ProcessID
    private var input: Int32
    private var output: Int32
    private let stderr: StderrTail
    private var buffer: [UInt8] = []
    /// What each read fills (kept: a fresh 64 KiB array per read would cost more than the read).
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private var line: [UInt8] = []
    private var reaped = false

    private init(path: String, timeoutMs: Int, pid: System.ProcessID, input: Int32, output: Int32, stderr: StderrTail) {
        self.path = path
        self.timeoutMs = timeoutMs
        self.pid = pid
        self.input = input
        self.output = output
        self.stderr = stderr
    }

    /// Starts `path` with no arguments, its stdin and stdout piped to popsim.
    static func start(_ path: String, timeoutMs: Int) throws(PluginFailure) -> PluginProcess {
        if let problem = Self.unstartable(path) { throw PluginFailure(.process("cannot be started: \(problem)")) }
        // Pipes are made close-on-exec and the child spawned under one lock, so a plug-in started
        // at the same time by another thread never inherits this one's pipes. The child gets its
        // own process group (stopping it stops what it started too) and a clean signal state.
        return try spawnLock.withLock { (_) throws(PluginFailure) -> PluginProcess in try spawn(path, timeoutMs: timeoutMs) }
    }

    /// The pipes and the child: what `start` does under the lock.
    private static func spawn(_ path: String, timeoutMs: Int) throws(PluginFailure) -> PluginProcess {
        guard let toChild = System.makePipe() else { throw noPipe() }
        guard let fromChild = System.makePipe() else {
            for fd in [toChild.read, toChild.write] { System.closeFile(fd) }
            throw noPipe()
        }
        guard let errFromChild = System.makePipe() else {
            for fd in [toChild.read, toChild.write, fromChild.read, fromChild.write] { System.closeFile(fd) }
            throw noPipe()
        }
        // "Text file busy": the file was just written and a process forked meanwhile (anywhere on
        // the machine) still holds it open for writing; that passes in moments, so try again.
        var spawned = System.spawn(path, stdin: toChild.read, stdout: fromChild.write, stderr: errFromChild.write)
        for _ in 0..<100 {
            guard case .failure(let error) = spawned, error.code == System.textBusy else { break }
            System.sleep(microseconds: 10_000)
            spawned = System.spawn(path, stdin: toChild.read, stdout: fromChild.write, stderr: errFromChild.write)
        }
        for fd in [toChild.read, fromChild.write, errFromChild.write] { System.closeFile(fd) }
        switch spawned {
        case .failure(let error):
            for fd in [toChild.write, fromChild.read, errFromChild.read] { System.closeFile(fd) }
            throw PluginFailure(.process("cannot be started: \(System.describe(error.code))"))
        case .success(let pid):
            System.setNonBlocking(toChild.write)
            PluginGroups.add(pid)
            return PluginProcess(path: path, timeoutMs: timeoutMs, pid: pid, input: toChild.write, output: fromChild.read,
                                 stderr: StderrTail(fd: errFromChild.read))
        }
    }

    private static func noPipe() -> PluginFailure {
        PluginFailure(.process("cannot be started: no pipe (\(System.lastError))"))
    }

    /// Why `path` cannot run, before trying: missing, a folder, not executable.
    static func unstartable(_ path: String) -> String? {
        guard let info = System.fileInfo(path) else { return System.lastError }
        if info.kind == .directory { return "it is a directory" }
        if !System.canExecute(path) { return "it is not executable (chmod +x \(path))" }
        return nil
    }

    /// The plug-in's first line: its handshake.
    func hello() throws(PluginFailure) -> PluginHello {
        let line = try readLine(handshake: true)
        do {
            return try PluginHello.parse(line)
        } catch {
            throw PluginFailure(error.problem, reply: line)
        }
    }

    func exchange(_ line: [UInt8]) throws(PluginFailure) -> [UInt8] {
        PluginStats.count()
        try write(line)
        let reply = try readLine()
        // A second line already there is a reply to nothing: it would answer the next happening.
        if let extra = buffer.split(separator: 0x0A).first, !extra.isEmpty {
            throw PluginFailure(.process("it wrote more than one line in reply (the second: "
                + String(decoding: extra.prefix(200), as: UTF8.self) + "); debugging output belongs on stderr"))
        }
        return reply
    }

    /// A new process past its handshake (which a run does not need again).
    static func started(_ path: String, timeoutMs: Int) throws(PluginFailure) -> PluginProcess {
        let process = try start(path, timeoutMs: timeoutMs)
        do throws(PluginFailure) {
            _ = try process.hello()
        } catch {
            process.close()
            throw error
        }
        return process
    }

    func close(reusable: Bool) { close() }

    func close() {
        if input >= 0 { System.closeFile(input); input = -1 }
        if !reaped {
            if waitForExit(ms: 1000) == nil {
                stop()
                _ = waitForExit(ms: 1000)
            }
        }
        if output >= 0 { System.closeFile(output); output = -1 }
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
            let n = bytes.withUnsafeBytes { raw in raw.baseAddress.map { System.writeBytes(input, $0 + sent, bytes.count - sent) } ?? -1 }
            if n > 0 { sent += n; continue }
            let error = System.errorNumber
            if n < 0 && error == System.interrupted { continue }
            if n < 0 && error == System.wouldBlock {
                let end = deadline ?? Self.now() + timeoutMs
                deadline = end
                let left = end - Self.now()
                if left <= 0 { throw timedOut() }
                _ = System.poll(input, writing: true, timeoutMs: left)
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
            if buffer.count > Self.maxLineBytes { throw PluginFailure(.process("its reply is longer than \(Self.maxLineBytes >> 20) MiB")) }
            var left = timeoutMs
            if let deadline {
                left = deadline - Self.now()
                if left <= 0 { throw timedOut(handshake) }
            } else {
                deadline = Self.now() + timeoutMs
            }
            switch System.poll(output, timeoutMs: left) {
            case .interrupted: continue
            case .timedOut: throw timedOut(handshake)
            case .ready, .failed: break
            }
            let n = chunk.withUnsafeMutableBytes { raw in raw.baseAddress.map { System.readBytes(output, $0, raw.count) } ?? -1 }
            if n < 0 && System.errorNumber == System.interrupted { continue }
            if n <= 0 { throw ended(handshake) }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    // MARK: Failures

    private func timedOut(_ handshake: Bool = false) -> PluginFailure {
        stop()
        _ = waitForExit(ms: 1000)
        let seconds = timeoutMs % 1000 == 0 ? "\(timeoutMs / 1000) s" : "\(timeoutMs) ms"
        return PluginFailure(.process((handshake ? "it sent no handshake within " : "it did not answer within ") + seconds
            + "; it was stopped (--plugin-timeout sets the limit)"))
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
        let tail = stderr.lastLines
        if tail.count == 1 {
            what += " (its stderr: \(tail[0]))"
        } else if !tail.isEmpty {
            what += " (its stderr ends with the \(tail.count) lines below)\n" + tail.map { "  | " + $0 }.joined(separator: "\n")
        }
        return PluginFailure(.process(what))
    }

    /// Kills the plug-in and everything in its process group.
    private func stop() {
        System.killGroup(pid)
        System.killProcess(pid)
    }

    typealias Exit = System.Exit

    /// Waits up to `ms` for the process to end; its status, or nil if it still runs. Once it has
    /// exited, and before it is reaped (so its id cannot have been reused), whatever it left
    /// running in its process group is killed.
    private func waitForExit(ms: Int) -> Exit? {
        if reaped { return .exited(-1) }
        let deadline = Self.now() + ms
        while true {
            if System.hasExited(pid) {
                System.killGroup(pid)
                // Off the lists while the unreaped child still holds its id (a reaped id may be reused).
                PluginGroups.remove(pid)
                let exit = System.reap(pid)
                reaped = true
                return exit
            }
            if Self.now() >= deadline { return nil }
            System.sleep(microseconds: 1000)
        }
    }

    static func now() -> Int { System.monotonicMs() }
}
