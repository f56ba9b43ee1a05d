/// A popup of the scenario, interned: its index in `Scenario.popups`.
///
/// The engine and strategies work on these small integers; names appear only at the edges
/// (loading and rendering), which keeps the hot path free of string hashing.
public struct PopupID: Hashable, Comparable, Sendable {
    public let index: Int32

    public init(_ index: Int) { self.index = Int32(index) }

    public static func < (a: PopupID, b: PopupID) -> Bool { a.index < b.index }
}
