/// What a request of a popup already on screen or waiting is, for a strategy's library: the same
/// popup again (most libraries compare names, keys or ids) or a new instance of it with its own
/// view, timer, place and request (SwiftEntryKit makes a new entry view on every `display`).
///
/// Why the engine decides it and not the strategy: an instance is a popup of the run in every
/// respect — phases, timers, the timeline's subjects, the ledger, the properties — so it is made
/// where those live (`Engine.instance(for:)`), and strategies see it as one more `PopupID`.
public enum InstancePolicy: String, Sendable, Equatable, CaseIterable {
    /// A request of a popup on screen or waiting goes to that popup (the strategy merges it,
    /// drops it as a duplicate, or waits for it).
    case merge
    /// A request of a popup on screen or waiting is a new instance, named `X#2`, `X#3`, … in
    /// the timeline; a request of `X` goes to the first of `X`, `X#2`, … that is off screen and
    /// not waiting, so the names are reused as instances leave.
    case perRequest = "per-request"
}
