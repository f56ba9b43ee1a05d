/// The fields a popup's file sets, as one bit per `PopupField`: a million popups cost no
/// allocation for it (an array per popup did), and `contains` is one test.
///
/// Iterates in `PopupField`'s declaration order.
public struct PopupFieldSet: Sequence, Equatable, Sendable, CustomStringConvertible {
    private var bits: UInt32 = 0

    public init() {}

    public func contains(_ field: PopupField) -> Bool { bits & Self.bit(field) != 0 }

    public var isEmpty: Bool { bits == 0 }

    public var count: Int { bits.nonzeroBitCount }

    mutating func insert(_ field: PopupField) { bits |= Self.bit(field) }

    public func makeIterator() -> some IteratorProtocol<PopupField> {
        var rest = bits
        return AnyIterator<PopupField> {
            guard rest != 0 else { return nil }
            let i = rest.trailingZeroBitCount
            rest &= rest &- 1
            return Self.fields[i]
        }
    }

    public var description: String { "[" + map { "\($0)" }.joined(separator: ", ") + "]" }

    private static let fields = PopupField.allCases

    private static func bit(_ field: PopupField) -> UInt32 { 1 << UInt32(field.ordinal) }
}
