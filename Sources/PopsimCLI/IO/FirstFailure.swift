import PopsimSystem

/// The lowest index of the parallel tasks that failed so far. Why: the command reports the
/// first failure in task order, so once task j has failed, no task after j can change what it
/// prints; those are skipped or stopped between runs (a scenario whose runs each write 5M lines
/// made `explore --strategy all` run every strategy to its limit: 24 s, now the first's 0.7 s).
/// A lock, not `Synchronization.Atomic` (macOS 15): it is read before every variant, 100,000
/// times a second and more, uncontended but for the moment a failure is noted.
final class FirstFailure: Sendable {
    private let lowest = System.Locked(Int.max)

    func note(_ i: Int) {
        lowest.withLock { $0 = min($0, i) }
    }

    /// Whether a task before `i` failed: `i`'s result cannot be reported.
    func precedes(_ i: Int) -> Bool { lowest.withLock { $0 } < i }
}
