import PopsimSystem

/// What `Benchmarks/run` reads to say where a replay's time goes: per phase of the reading, the
/// wall time it took and the time the threads doing it were busy (their sum: below the wall time
/// times the threads, they waited for one another; the trace's digest, hashed beside the
/// reading, is in no thread's busy time). Printed on stderr at exit when `POPSIM_REPLAY_STATS`
/// is set and a replay ran; nothing else reads it, and nothing is measured without it.
public enum ReplayStats {
    /// The phases, in the order a chunk goes through them.
    enum Phase: Int, CaseIterable {
        /// Cutting a chunk into one piece a worker and reading each piece's rows (`--jobs` > 1).
        /// Its wall time is only that of a chunk indexed with nothing gathered beside it (the
        /// first, or one after a chunk read alone); beside a gathering, the wall is gathering's.
        case index
        /// Each worker taking its users' rows: split, decoded, held.
        case gather
        /// After a chunk: replaying users done (rows grouped by user) or writing partitions.
        case release
        /// Once everything is read: replaying the users held or read back from partitions.
        case replay

        var word: String {
            switch self {
            case .index: "indexing"
            case .gather: "gathering"
            case .release: "releasing"
            case .replay: "replaying"
            }
        }
    }

    /// Whether `POPSIM_REPLAY_STATS` is set (read once).
    public static let enabled = System.environment("POPSIM_REPLAY_STATS") != nil

    /// Per phase: wall microseconds, then busy microseconds; last, how many walls were taken.
    private static let totals = System.Locked([Int](repeating: 0, count: 2 * Phase.allCases.count + 1))

    /// Now, for a phase's start (0 when not measuring).
    @inline(__always)
    static func start() -> Int { enabled ? System.monotonicUs() : 0 }

    /// A phase's wall time, from `start`.
    static func wall(_ phase: Phase, since start: Int) {
        guard enabled else { return }
        let us = System.monotonicUs() - start
        totals.withLock {
            $0[2 * phase.rawValue] += us
            $0[2 * Phase.allCases.count] += 1
        }
    }

    /// One thread's busy time in a phase, from `start`.
    static func busy(_ phase: Phase, since start: Int) {
        guard enabled else { return }
        let us = System.monotonicUs() - start
        totals.withLock { $0[2 * phase.rawValue + 1] += us }
    }

    /// `replay stats: indexing W ms (busy B ms), gathering …, releasing …, replaying …`, or
    /// nothing when no replay ran.
    public static func summary() -> String {
        let t = totals.withLock { $0 }
        guard t[2 * Phase.allCases.count] > 0 else { return "" }
        let parts = Phase.allCases.map { p in "\(p.word) \(t[2 * p.rawValue] / 1000) ms (busy \(t[2 * p.rawValue + 1] / 1000) ms)" }
        return "replay stats: " + parts.joined(separator: ", ") + "\n"
    }
}
