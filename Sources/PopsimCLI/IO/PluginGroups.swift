import PopsimSystem

/// The process groups of the plug-ins still running, in a fixed table that a signal handler may
/// read: when popsim is interrupted (SIGINT, SIGTERM, SIGHUP) or its `--timeout` fires, it kills
/// them before it exits, so no plug-in is left behind (they run in groups of their own, which a
/// terminal's Ctrl-C does not reach). Killed by SIGKILL, popsim runs no handler: then the watcher
/// of `System.Reaper` kills them.
public enum PluginGroups {
    static let capacity = 256
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<System.ProcessID> = {
        let table = UnsafeMutablePointer<System.ProcessID>.allocate(capacity: capacity)
        table.initialize(repeating: 0, count: capacity)
        return table
    }()

    /// Makes the table before any signal handler can need it (a lazy global is not safe there).
    public static func prepare() { _ = table }

    /// Notes a started plug-in (called under the spawn lock).
    /// (And tells the watcher that kills it should popsim die by a signal no handler sees.)
    static func add(_ pid: System.ProcessID) {
        System.Reaper.watch(pid)
        for i in 0..<capacity where table[i] == 0 {
            table[i] = pid
            return
        }
    }

    static func remove(_ pid: System.ProcessID) {
        for i in 0..<capacity where table[i] == pid { table[i] = 0 }
        System.Reaper.forget(pid)
    }

    /// Kills every plug-in's group: async-signal-safe (reads the table, calls kill).
    public static func killAll() {
        for i in 0..<capacity where table[i] > 0 { System.killGroup(table[i]) }
    }
}
