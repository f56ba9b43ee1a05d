import Dispatch

/// Work handed to another core that the caller takes back if it has not begun: `join` either
/// waits for the other core or, when no thread picked the work up yet, cancels it and returns nil.
///
/// Why not wait unconditionally: when every thread of the pool is busy (`check` runs scenarios
/// on all cores), the work might never start while its caller waits: a deadlock. Taking it back
/// instead means the caller does it itself, as if there were one core.
/// Contract: call `join` exactly once, before anything `work` reads goes away.
public final class SideTask<Output>: @unchecked Sendable {
    private enum State { case waiting, running, taken }
    private let lock = DispatchSemaphore(value: 1)
    private let finished = DispatchSemaphore(value: 0)
    private var state = State.waiting
    private var output: Output?
    private let work: () -> Output

    /// `inline`: do the work now, on this thread (tests: the outcome as if the other core had
    /// finished first).
    public init(inline: Bool = false, _ work: @escaping () -> Output) {
        self.work = work
        if inline {
            runIfWaiting()
        } else {
            DispatchQueue.global().async { self.runIfWaiting() }
        }
    }

    private func runIfWaiting() {
        lock.wait()
        let mine = state == .waiting
        if mine { state = .running }
        lock.signal()
        guard mine else { return }
        output = work()
        finished.signal()
    }

    /// The work's output, waiting for it if it began; nil if it had not (it now never will).
    public func join() -> Output? {
        lock.wait()
        let began = state == .running
        if !began { state = .taken }
        lock.signal()
        guard began else { return nil }
        finished.wait()
        return output
    }
}
