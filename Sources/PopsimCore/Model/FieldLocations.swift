/// Where the fields each popup sets stand in the file, for every popup of a scenario in one
/// array: 12 bytes a field, where an array per popup cost an allocation and 16 bytes a field (a
/// file may declare a million popups). A popup's fields are consecutive, in file order, from
/// its `Popup.locationStart`; lines and columns are clamped to 32 bits, as events' are.
public struct FieldLocations: Sendable {
    struct Entry: Sendable {
        var ordinal: UInt8
        var line: UInt32
        var column: UInt32
    }

    private var entries: [Entry] = []

    public init() {}

    public var count: Int { entries.count }

    mutating func append(_ field: PopupField, _ location: SourceLocation) {
        entries.append(Entry(ordinal: UInt8(field.ordinal), line: UInt32(clamping: location.line),
                             column: UInt32(clamping: location.column)))
    }

    /// Forgets every entry from `count` on (a popup the fast path gave up on).
    mutating func truncate(to count: Int) {
        if count < entries.count { entries.removeSubrange(count...) }
    }

    mutating func reserve(_ count: Int) { entries.reserveCapacity(count) }

    /// `other`'s entries after these; a popup of `other` starting at i now starts at `count + i`.
    mutating func append(contentsOf other: FieldLocations) { entries.append(contentsOf: other.entries) }

    /// The fields `popup` sets with where each stands, in file order.
    public func of(_ popup: Popup) -> [(field: PopupField, location: SourceLocation)] {
        let start = Int(popup.locationStart), end = start + popup.fieldsSet.count
        guard start >= 0, end <= entries.count else { return [] }
        return entries[start..<end].map { (PopupField.allCases[Int($0.ordinal)], SourceLocation(line: Int($0.line), column: Int($0.column))) }
    }

    /// Where `popup` sets `field`, if it does.
    public func location(of field: PopupField, in popup: Popup) -> SourceLocation? {
        of(popup).first { $0.field == field }?.location
    }
}
