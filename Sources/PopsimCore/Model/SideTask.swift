import Dispatch
import PopsimSystem

/// Work handed to another core that the caller takes back if it has not begun: `join` either
/// waits for the other core or, when no thread picked the work up yet, cancels it and returns nil.
///
/// Why not wait unconditionally: when every thread of the pool is busy (`check` runs scenarios
/// on all cores), the work might never start while its caller waits: a deadlock. Taking it back
/// instead means the caller does it itself, as if there were one core.
/// Contract: call `join` exactly once. The work is `@Sendable` and its output `Sendable`: what it
/// reads is the compiler's to check, not this type's; its state is behind one lock.
public final class SideTask<Output: Sendable>: Sendable {
    private enum State { case waiting, running, finished(Output), taken }
    private let state = System.Locked(State.waiting)
    /// Signalled once, when the work is done (a signal, not a lock).
    private let finished = DispatchSemaphore(value: 0)
    private let work: @Sendable () -> Output

    /// `inline`: do the work now, on this thread (tests: the outcome as if the other core had
    /// finished first).
    public init(inline: Bool = false, _ work: @escaping @Sendable () -> Output) {
        self.work = work
        if inline {
            runIfWaiting()
        } else {
            DispatchQueue.global().async { self.runIfWaiting() }
        }
    }

    private func runIfWaiting() {
        let mine = state.withLock { s -> Bool in
            guard case .waiting = s else { return false }
            s = .running
            return true
        }
        guard mine else { return }
        let output = work()
        state.withLock { $0 = .finished(output) }
        finished.signal()
    }

    /// The work's output, waiting for it if it began; nil if it had not (it now never will).
    public func join() -> Output? {
        let began = state.withLock { s -> Bool in
            if case .waiting = s {
                s = .taken
                return false
            }
            return true
        }
        guard began else { return nil }
        finished.wait()
        return state.withLock { s -> Output? in
            guard case .finished(let output) = s else { return nil }
            return output
        }
    }
}
