import Synchronization

/// The lowest index of the parallel tasks that failed so far. Why: the command reports the
/// first failure in task order, so once task j has failed, no task after j can change what it
/// prints; those are skipped or stopped between runs (a scenario whose runs each write 5M lines
/// made `explore --strategy all` run every strategy to its limit: 24 s, now the first's 0.7 s).
/// An atomic, not a lock: it is read before every variant (100,000 a second and more).
final class FirstFailure: Sendable {
    private let lowest = Atomic<Int>(Int.max)

    func note(_ i: Int) {
        var seen = lowest.load(ordering: .relaxed)
        while i < seen {
            let (exchanged, original) = lowest.compareExchange(expected: seen, desired: i, ordering: .relaxed)
            if exchanged { return }
            seen = original
        }
    }

    /// Whether a task before `i` failed: `i`'s result cannot be reported.
    func precedes(_ i: Int) -> Bool { lowest.load(ordering: .relaxed) < i }
}
