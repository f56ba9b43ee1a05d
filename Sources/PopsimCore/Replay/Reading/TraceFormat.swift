/// A trace format, declared once: its name (`--trace-format`), the file extensions that imply it,
/// how its first bytes are told (standard input, other extensions), whether a reader may start at
/// any line break, and its reader. `TraceFormats.all` is the one list.
public struct TraceFormat: Sendable, Equatable, CustomStringConvertible {
    /// The word for it on the command line.
    public let name: String
    /// Its name for people.
    public let title: String
    /// File name endings that imply it.
    public let extensions: [String]
    /// Whether every line break ends a record, so that a reader may start after any of them
    /// (JSON Lines); CSV may quote a line break inside a field, so it is read from the start.
    public let splitsAtLineBreaks: Bool
    /// Whether the first bytes of a trace (a chunk's worth, or all of a short trace) look like it.
    let sniffs: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    let reader: @Sendable (_ layout: TraceLayout, _ file: String) -> any TraceRowReader

    public var description: String { name }

    public static func == (a: TraceFormat, b: TraceFormat) -> Bool { a.name == b.name }

    /// A reader of this format.
    public func makeReader(_ layout: TraceLayout, file: String) -> any TraceRowReader { reader(layout, file) }

    public func sniff(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { sniffs(bytes) }

    /// The first byte that is not white space or a UTF-8 byte order mark; nil when there is none.
    static func firstByte(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, [32, 9, 10, 13].contains(bytes[i]) { i += 1 }
        return i < bytes.count ? bytes[i] : nil
    }
}

/// Every trace format popsim reads, in the order they are tried on a trace's first bytes.
public enum TraceFormats {
    public static let all: [TraceFormat] = [.csv, .jsonLines]

    public static var names: [String] { all.map(\.name) }

    public static func named(_ name: String) -> TraceFormat? { all.first { $0.name == name } }

    /// The format a file name implies, or nil (standard input, another extension).
    public static func implied(by path: String) -> TraceFormat? {
        all.first { format in format.extensions.contains { path.hasSuffix($0) } }
    }

    /// The first format whose sniff takes these first bytes (CSV when none does).
    public static func sniffed(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceFormat {
        all.first { $0.sniff(bytes) } ?? .csv
    }
}
