import Dispatch
import PopsimCore

/// A progress line on stderr for long work (`check`, a long `run`): drawn only on a terminal, only
/// after the first second, at most ten times a second, and erased when the work ends, so that
/// nothing of it stays in the output. Safe to update from several threads.
public final class ProgressLine: @unchecked Sendable {
    private let draw: @Sendable (String) -> Void
    private let start = DispatchTime.now().uptimeNanoseconds
    private var last: UInt64 = 0
    private var shown = false
    private let lock = DispatchSemaphore(value: 1)

    /// `draw` writes straight to the terminal (the executable's stderr).
    public init(draw: @escaping @Sendable (String) -> Void) { self.draw = draw }

    public func update(_ text: @autoclosure () -> String) {
        lock.wait()
        defer { lock.signal() }
        // Read under the lock: a worker that read the clock earlier cannot come in after a later one.
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- start > 1_000_000_000, now &- last > 100_000_000 else { return }
        last = now
        shown = true
        draw("\r\u{1B}[K" + text())
    }

    public func finish() {
        lock.wait()
        defer { lock.signal() }
        if shown { draw("\r\u{1B}[K") }
        shown = false
    }
}
