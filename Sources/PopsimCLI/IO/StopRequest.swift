import PopsimSystem

/// Ctrl-C, SIGTERM, SIGHUP or `--timeout` while a command that can stop cleanly (`explore`,
/// `check`) is working: instead of exiting at once, popsim lets the runs under way end, reports
/// what was done marked incomplete, and exits 2. A second signal, or work that does not stop
/// within `graceSeconds`, ends popsim at once as before.
///
/// Contract: the state is two cells in memory a signal handler may touch (no allocation, no lock):
/// whether the command is stoppable, and what was asked (0 nothing, a signal number, or -1 for
/// the timeout). `request` is async-signal-safe.
public enum StopRequest {
    /// How long a stop may take before popsim exits anyway.
    public static let graceSeconds = 10

    nonisolated(unsafe) private static let cells: UnsafeMutablePointer<Int32> = {
        let cells = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        cells.initialize(repeating: 0, count: 2)
        return cells
    }()

    /// Makes the cells before any signal handler can need them (a lazy global is not safe there).
    public static func prepare() { _ = cells }

    /// From a signal handler: `code` (a signal, or -1 for the timeout) taken as a request to stop
    /// cleanly — true, and the handler returns — or not (nothing stoppable runs, or a stop was
    /// already asked): then popsim must exit now.
    public static func request(_ code: Int32) -> Bool {
        guard cells[0] == 1, cells[1] == 0 else { return false }
        cells[1] = code
        return true
    }

    /// Whether a stop was asked (async-signal-safe).
    public static var isRequested: Bool { cells[1] != 0 }

    /// Why the work should stop, if it should: read before each unit of work.
    static var requested: Reason? {
        let code = cells[1]
        if code == 0 { return nil }
        return code < 0 ? .timedOut : .signal(code)
    }

    /// Runs `body` with stopping cleanly allowed.
    static func stoppable<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        cells[0] = 1
        defer { cells[0] = 0 }
        return try body()
    }

    enum Reason: Equatable {
        case timedOut
        case signal(Int32)

        /// Words for the report (`--timeout`'s seconds given by the command).
        func text(timeout: Int) -> String {
            switch self {
            case .timedOut: return "timed out after \(timeout) s"
            case .signal(let code): return "stopped by \(System.signalName(code))"
            }
        }
    }
}
