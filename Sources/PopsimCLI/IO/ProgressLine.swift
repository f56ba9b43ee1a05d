import Dispatch
import PopsimCore
import PopsimSystem

/// A progress line on stderr for long work (`check`, a long `run`): drawn only on a terminal, only
/// after the first second, at most ten times a second, and erased when the work ends, so that
/// nothing of it stays in the output. Safe to update from several threads.
public final class ProgressLine: Sendable {
    private let draw: @Sendable (String) -> Void
    private let start = DispatchTime.now().uptimeNanoseconds
    private let timing: Timing
    /// When it was last drawn, and whether it is on screen.
    private let drawn = System.Locked((last: UInt64(0), shown: false))

    /// When the line first shows and how often it is redrawn, in nanoseconds.
    public struct Timing: Sendable {
        public var after: UInt64
        public var every: UInt64
        public init(after: UInt64, every: UInt64) {
            self.after = after
            self.every = every
        }

        /// A terminal's: after a second, ten times a second.
        public static let terminal = Timing(after: 1_000_000_000, every: 100_000_000)
        /// Every update drawn at once (tests: what is drawn does not depend on the machine's speed).
        public static let always = Timing(after: 0, every: 0)
    }

    /// `draw` writes straight to the terminal (the executable's stderr).
    public init(draw: @escaping @Sendable (String) -> Void, timing: Timing = .terminal) {
        self.draw = draw
        self.timing = timing
    }

    public func update(_ text: @autoclosure () -> String) {
        drawn.withLock { d in
            // Read under the lock: a worker that read the clock earlier cannot come in after a later one.
            let now = DispatchTime.now().uptimeNanoseconds
            guard now &- start >= timing.after, now &- d.last >= timing.every else { return }
            d.last = now
            d.shown = true
            draw("\r\u{1B}[K" + text())
        }
    }

    public func finish() {
        drawn.withLock { d in
            if d.shown { draw("\r\u{1B}[K") }
            d.shown = false
        }
    }
}
