/// A parsed JSON value that remembers where it stood in the file.
///
/// Objects keep their members in file order, duplicates included: rejecting duplicates is the
/// loader's job, so that it can report them together with every other error of the file.
/// Numbers keep their text: popsim accepts integers only, and must be able to say what it got.
public struct JSONValue: Sendable {
    public var kind: Kind
    public var location: SourceLocation

    public enum Kind: Sendable {
        case object([Member])
        case array([JSONValue])
        case string(String)
        case number(JSONNumber)
        case bool(Bool)
        case null
    }

    /// One `"key": value` pair of an object, with the key's own location.
    public struct Member: Sendable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: JSONValue

        package init(key: String, keyLocation: SourceLocation, value: JSONValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// How the value is named in an error message: `"soon"`, `1.5`, `true`, `null`, `an object`.
    public var errorDescription: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let s): return Self.quoted(s)
        case .number(let n): return n.text.count > 40 ? String(n.text.prefix(40)) + "… (\(n.text.count) characters)" : n.text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    /// A string as a JSON literal for a one-line message, cut after 40 characters.
    package static func quoted(_ s: String) -> String {
        let cut = s.unicodeScalars.count > 40
        let literal = Self.literal(cut ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(40))) : s)
        return cut ? String(literal.dropLast()) + "…\"" : literal
    }

    /// A JSON string literal; non-ASCII is written as is (the output is UTF-8).
    package static func literal(_ s: String) -> String {
        // Most strings (names, keys, words) are printable ASCII without a quote or a backslash:
        // written as they are, without a scalar loop.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls (C0, DEL, C1) and the bidirectional formatting characters are escaped:
                // valid JSON either way, and safe to print to a terminal.
                if scalar.isTerminalUnsafe {
                    out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4, with: "0")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// A JSON number as written, with its integer value when it has one that fits.
public struct JSONNumber: Sendable {
    /// The number exactly as it appeared in the file.
    public var text: String
    /// The value when the text is an integer (no fraction, no exponent) within `Int` range.
    public var integer: Int?
    /// True when the text is an integer but too large for `Int`.
    public var isOutOfRange: Bool

    package init(text: String, integer: Int?, isOutOfRange: Bool) {
        self.text = text
        self.integer = integer
        self.isOutOfRange = isOutOfRange
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    package func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL, C1 controls and the bidirectional formatting characters: what must never
    /// reach a terminal raw (JSON escapes them; human formats write them as visible escapes).
    public var isTerminalUnsafe: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
