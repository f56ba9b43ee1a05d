import PopsimSystem

/// What `Benchmarks/run` needs to measure popsim's own share of a plug-in round trip: how many
/// lines were exchanged, and the CPU time popsim itself used (its plug-ins' time not included).
/// Printed on stderr at exit when `POPSIM_PLUGIN_STATS` is set; nothing else reads it.
public enum PluginStats {
    private static let exchanges = System.Locked(0)

    static func count() { exchanges.withLock { $0 += 1 } }

    /// Microseconds as seconds with six decimals.
    static func seconds(_ us: Int) -> String {
        let fraction = String(us % 1_000_000)
        return "\(us / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `plug-in stats: N exchanges, popsim CPU S s (user U, system Y)`.
    public static func summary() -> String {
        let (user, system) = System.cpuTime()
        return "plug-in stats: \(exchanges.withLock { $0 }) exchanges, popsim CPU \(seconds(user + system)) s (user \(seconds(user)), system \(seconds(system)))\n"
    }
}
