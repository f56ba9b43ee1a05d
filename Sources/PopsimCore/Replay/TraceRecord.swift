/// One row of a trace as text: the five fields by name, each with where it stands.
///
/// What the row means (which popup, which state value) is `TraceDecoder`'s: the reader only
/// splits the bytes, so CSV and JSON Lines are decoded by one piece of code.
public struct TraceRecord: Sendable {
    /// The row's number in the trace (the CSV header is not a row), from 1.
    public var row: Int
    /// The line it starts on.
    public var line: Int
    /// Per `TraceLayout.Field`, in `allCases` order: its text, or nil when the row has none.
    public var fields: [String?]
    /// Per field: the column (from 1) of its first character, or of the row when it is absent.
    public var columns: [Int]

    public subscript(_ field: TraceLayout.Field) -> String? {
        fields[Self.index(field)]
    }

    public func location(_ field: TraceLayout.Field) -> SourceLocation {
        SourceLocation(line: line, column: columns[Self.index(field)])
    }

    static func index(_ field: TraceLayout.Field) -> Int {
        switch field {
        case .user: 0
        case .time: 1
        case .action: 2
        case .popup: 3
        case .value: 4
        }
    }
}
