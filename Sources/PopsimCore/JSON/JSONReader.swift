/// A small strict JSON reader (RFC 8259) that keeps key order and the location of every value.
///
/// Why our own: Foundation's `JSONDecoder` loses key order, ignores unknown keys and reports no
/// place. Contract: accepts exactly RFC 8259 text, with one leading UTF-8 byte order mark allowed;
/// rejects invalid UTF-8, control characters in strings, lone surrogates and trailing garbage.
/// Nesting is bounded by `maxDepth`, so a hostile file gets an error instead of a stack overflow.
/// - Complexity: O(n) in the size of the input.
public struct JSONReader {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 256

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in
            var reader = JSONCursor(buffer)
            return try reader.document()
        }
    }
}

/// The reader's position in a buffer, with its line and column; a value, so saving and restoring
/// a position is a copy. The scenario loader drives it directly to stream the `events` array.
///
/// `@unchecked Sendable`, audited: a cursor only reads `bytes`, which are never written while a
/// scenario loads, and the loader keeps them alive until every cursor it handed another core is
/// back (`SideTask.join` before `load` returns). The pointer is what the checker cannot see.
struct JSONCursor: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
            lineStart = 3
        }
    }

    var location: SourceLocation { SourceLocation(line: line, column: position - lineStart + 1) }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        if position == bytes.count { throw fail("expected a JSON value, got an empty file") }
        let value = try self.value(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw fail("expected the end of the file after the top-level value, got \(describeByte())")
        }
        return value
    }

    var atEnd: Bool { position >= bytes.count }

    /// The byte under the cursor, or nil at the end.
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Steps over `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// After a member or an element: steps over `,` (false) or the closing byte (true), else
    /// throws the reader's error for `container` ("an object", "an array").
    mutating func separator(closing: UInt8, in container: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if position < bytes.count {
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                return false
            }
            if bytes[position] == closing {
                position += 1
                return true
            }
        }
        // The message is built only on failure: this runs once per element of every container.
        throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))' in \(container), got " + describeByte())
    }

    func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location, message: message)
    }

    func describeByte() -> String {
        guard position < bytes.count else { return "the end of the file" }
        let b = bytes[position]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2, with: "0")
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        let start = location
        guard position < bytes.count else { throw fail("expected a value, got the end of the file") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return JSONValue(.object(try object(depth: depth + 1)), at: start)
        case UInt8(ascii: "["): return JSONValue(.array(try array(depth: depth + 1)), at: start)
        case UInt8(ascii: "\""): return JSONValue(.string(try string()), at: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONValue(.bool(true), at: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONValue(.bool(false), at: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONValue(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(.number(try number()), at: start)
        default:
            throw fail("expected a value, got \(describeByte())")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for i in 0..<count {
            guard position + i < bytes.count, bytes[position + i] == start[i] else {
                throw fail("expected a value, got \(describeByte())")
            }
        }
        position += count
    }

    mutating func enter(_ depth: Int) throws(JSONSyntaxError) {
        if depth > JSONReader.maxDepth {
            throw fail("nesting deeper than \(JSONReader.maxDepth) levels")
        }
        position += 1
        skipWhitespace()
    }

    /// An object member's key and the `:` after it, the cursor left on its value.
    @inline(__always)
    mutating func memberKey() throws(JSONSyntaxError) -> (key: String, location: SourceLocation) {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw fail("expected a string key, got \(describeByte())")
        }
        let keyLocation = location
        let key = try string()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw fail("expected ':' after an object key, got \(describeByte())")
        }
        position += 1
        skipWhitespace()
        return (key, keyLocation)
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> [JSONValue.Member] {
        try enter(depth)
        var members: [JSONValue.Member] = []
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return members
        }
        while true {
            let (key, keyLocation) = try memberKey()
            let value = try self.value(depth: depth)
            members.append(JSONValue.Member(key: key, keyLocation: keyLocation, value: value))
            if try separator(closing: UInt8(ascii: "}"), in: "an object") { return members }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        try enter(depth)
        var elements: [JSONValue] = []
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            elements.append(try value(depth: depth))
            if try separator(closing: UInt8(ascii: "]"), in: "an array") { return elements }
        }
    }
}

