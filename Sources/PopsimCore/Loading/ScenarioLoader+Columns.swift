/// Columns inside a JSON string: a problem at byte `offset` of a string's decoded text (a
/// condition, a property) is pointed at where that byte is written in the file, escapes counted
/// as written (`\u0041` is six columns, one byte of text).
extension ScenarioLoader {
    /// The file location of decoded byte `offset` of the string whose opening quote is at `quote`.
    /// Without the file's bytes (a tree built elsewhere), one column per byte.
    mutating func location(inStringAt quote: SourceLocation, offset: Int) -> SourceLocation {
        guard let source, let start = bytePosition(of: quote, in: source), start < source.count,
              source[start] == UInt8(ascii: "\"") else { return quote.advanced(by: 1 + offset) }
        var p = start + 1, decoded = 0
        while decoded < offset, p < source.count, source[p] != UInt8(ascii: "\"") {
            guard source[p] == UInt8(ascii: "\\"), p + 1 < source.count else {
                decoded += 1
                p += 1
                continue
            }
            if source[p + 1] == UInt8(ascii: "u"), let (scalar, length) = Self.unicodeEscape(source, at: p) {
                decoded += String(scalar).utf8.count
                p += length
            } else {
                decoded += 1
                p += 2
            }
        }
        return quote.advanced(by: p - start)
    }

    /// The byte position of `location` (line and column, as `JSONCursor` counts them).
    mutating func bytePosition(of location: SourceLocation, in source: UnsafeBufferPointer<UInt8>) -> Int? {
        if lineStarts == nil {
            var starts = [source.count >= 3 && source[0] == 0xEF && source[1] == 0xBB && source[2] == 0xBF ? 3 : 0]
            for (i, byte) in source.enumerated() where byte == 0x0A { starts.append(i + 1) }
            lineStarts = starts
        }
        guard let starts = lineStarts, location.line >= 1, location.line <= starts.count else { return nil }
        return starts[location.line - 1] + location.column - 1
    }

    /// `\uXXXX` at `p` (a surrogate pair as one scalar): the scalar and how many bytes it takes.
    static func unicodeEscape(_ source: UnsafeBufferPointer<UInt8>, at p: Int) -> (Unicode.Scalar, Int)? {
        func hex(_ at: Int) -> UInt32? {
            guard at + 6 <= source.count, source[at] == UInt8(ascii: "\\"), source[at + 1] == UInt8(ascii: "u") else { return nil }
            return UInt32(String(decoding: source[(at + 2)..<(at + 6)], as: UTF8.self), radix: 16)
        }
        guard let first = hex(p) else { return nil }
        if (0xD800...0xDBFF).contains(first), let second = hex(p + 6), (0xDC00...0xDFFF).contains(second) {
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)).map { ($0, 12) }
        }
        return Unicode.Scalar(first).map { ($0, 6) }
    }
}
