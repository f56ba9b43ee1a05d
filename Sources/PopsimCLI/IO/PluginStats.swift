#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What `Benchmarks/run` needs to measure popsim's own share of a plug-in round trip: how many
/// lines were exchanged, and the CPU time popsim itself used (its plug-ins' time not included).
/// Printed on stderr at exit when `POPSIM_PLUGIN_STATS` is set; nothing else reads it.
public enum PluginStats {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var exchanges = 0

    static func count() {
        lock.lock()
        exchanges += 1
        lock.unlock()
    }

    /// `plug-in stats: N exchanges, popsim CPU S s`.
    public static func summary() -> String {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        lock.lock()
        defer { lock.unlock() }
        return "plug-in stats: \(exchanges) exchanges, popsim CPU \(String(format: "%.4f", cpu)) s\n"
    }
}
