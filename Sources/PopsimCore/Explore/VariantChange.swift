/// One way a variant departs from the nominal script, as data (`EvidenceText` words it:
/// `shareGuide arrives at 1200 instead of 0`, `[a, b] arrive as b, a`, `c never arrives`).
public struct VariantChange: Sendable, Equatable {
    /// What the uncertain event is.
    public enum Subject: Sendable, Equatable {
        /// An enqueue of one popup.
        case popup(String)
        /// An enqueue of a list, in the script's order.
        case batch([String])
        /// Any other event: its index in `events` and its action's keyword.
        case event(index: Int, keyword: String)
    }

    public enum Kind: Sendable, Equatable {
        /// A `maybe` event that does not happen.
        case absent
        /// An `at` window's event at another instant than its earliest.
        case moved(to: Int, from: Int)
        /// An `order: any` list taken in this order.
        case reordered([String])
    }

    public var subject: Subject
    public var kind: Kind
}
