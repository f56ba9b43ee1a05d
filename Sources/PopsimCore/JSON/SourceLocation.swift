/// A 1-based line and column in a scenario file, counted in bytes from the start of the line.
///
/// Every value the JSON reader produces carries one, so that every load error can name the exact
/// place. Columns count UTF-8 bytes, not grapheme clusters: stable and cheap, and exact for ASCII.
public struct SourceLocation: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location `offset` bytes to the right on the same line.
    public func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(line: line, column: column + offset)
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(line):\(column)" }
}
