/// What a strategy is told, as the engine processes it (design.md §5).
public enum Happening: Sendable, Equatable {
    /// The script (or a `then` list) handed the popup to the scheduler.
    case enqueued(PopupID)
    /// The popup started hiding by itself: the user responded, or its `duration` ran out.
    case dismissing(PopupID, Reason)
    /// The popup's present animation ended.
    case shown(PopupID)
    /// The popup's dismiss animation ended; it is off screen.
    case gone(PopupID)
    /// A `set` or a navigation changed the state.
    case stateChanged
    /// The app's run loop is about to wait (design.md §4, step 4).
    case idle
    case trigger
    case suspend
    case resume
    case remove(PopupID)
    case clear
    /// The app empties only the waiting list, only the screen, or both up to a priority
    /// (`Action.clearQueue`, `.clearScreen`, `.clearUpTo`).
    case clearQueue
    case clearScreen
    case clearUpTo(Int)
    /// The user holds or releases display timers; the strategy decides what that does.
    case pauseTimers(TimerTarget)
    case resumeTimers(TimerTarget)
    /// A timer the strategy started has fired; the token is the strategy's own.
    case timer(Int)
    /// The run is over (nothing left, or `until`): the strategy may only warn or drop now.
    case finished
}
