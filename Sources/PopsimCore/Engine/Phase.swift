/// Where a popup stands on screen. The engine owns it; strategies only read it.
public enum Phase: Sendable, Equatable {
    /// Not on screen (queued, dropped, or never enqueued).
    case hidden
    /// The present animation runs (`show` logged, `shown` not yet).
    case presenting
    /// Fully visible.
    case shown
    /// The dismiss animation runs (`hide` logged, `gone` not yet).
    case hiding
}
