import PopsimCore
import PopsimSystem

/// The idle processes of a plug-in that serves many runs (`"persistent": true` in its
/// handshake): a run takes one, or starts one when none is idle, and gives it back when its
/// `finished` was answered, so `explore` and `check` keep about one process per job instead of
/// starting one per run (docs/plugin-protocol.md, "Many runs in one process").
///
/// Contract: a process is reused only after a clean run; after any failure it is stopped. The
/// pool never holds more processes than runs went on at once. `closeAll` ends every idle process
/// of every pool (the command calls it before popsim exits), so none outlives popsim.
final class PluginPool: Sendable {
    let path: String
    let timeoutMs: Int
    private let idle = System.Locked([PluginProcess]())

    /// Every pool made, for `closeAll`.
    private static let pools = System.Locked([PluginPool]())

    /// A pool for `path`, its first process (the one whose handshake described it) already idle.
    init(path: String, timeoutMs: Int, first: PluginProcess?) {
        self.path = path
        self.timeoutMs = timeoutMs
        if let first { idle.withLock { $0.append(first) } }
        Self.pools.withLock { $0.append(self) }
    }

    /// A process for one run: an idle one, else a new one past its handshake.
    func take() throws(PluginFailure) -> PluginChannel {
        if let process = idle.withLock({ $0.popLast() }) { return Lease(process, pool: self) }
        return Lease(try PluginProcess.started(path, timeoutMs: timeoutMs), pool: self)
    }

    private func giveBack(_ process: PluginProcess) {
        idle.withLock { $0.append(process) }
    }

    /// Ends every idle process of every pool (their input closed; stopped a second later).
    static func closeAll() {
        let all = pools.withLock { p in
            defer { p.removeAll() }
            return p
        }
        for pool in all {
            let processes = pool.idle.withLock { i in
                defer { i.removeAll() }
                return i
            }
            for process in processes { process.close() }
        }
    }

    /// One run's use of a pooled process.
    private final class Lease: PluginChannel {
        private let process: PluginProcess
        private let pool: PluginPool

        init(_ process: PluginProcess, pool: PluginPool) {
            self.process = process
            self.pool = pool
        }

        func exchange(_ line: [UInt8]) throws(PluginFailure) -> [UInt8] { try process.exchange(line) }

        func close(reusable: Bool) {
            if reusable { pool.giveBack(process) } else { process.close() }
        }
    }
}
