/// JSON's scalars as the reader takes them: strings (UTF-8 checked, escapes decoded, the fast
/// path for plain ASCII) and numbers (the text kept, an `Int` when it is one).
extension JSONCursor {
    mutating func string() throws(JSONSyntaxError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes, all ASCII.
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return s
            }
            if b == UInt8(ascii: "\\") || b >= 0x80 || b < 0x20 { break }
            position += 1
        }
        var out: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw fail("expected a closing '\"' or a printable character in a string, got \(describeByte())")
            case 0x80...:
                try utf8Sequence(into: &out)
            default:
                out.append(b)
                position += 1
            }
        }
        throw fail("expected a closing '\"', got the end of the file")
    }

    /// Copies one multi-byte UTF-8 sequence, rejecting overlongs, surrogates and stray bytes.
    mutating func utf8Sequence(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let b0 = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw fail("invalid UTF-8 (\(describeByte()))")
        }
        guard position + length <= bytes.count else { throw fail("invalid UTF-8 (truncated sequence)") }
        for i in 1..<length {
            let b = bytes[position + i]
            let (lo, hi) = i == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard b >= lo && b <= hi else { throw fail("invalid UTF-8 (\(describeByte()))") }
        }
        out.append(contentsOf: bytes[position..<(position + length)])
        position += length
    }

    mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        guard position + 1 < bytes.count else { throw fail("expected an escape, got the end of the file") }
        let c = bytes[position + 1]
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            position += 1
            throw fail("invalid escape '\\\(describeByte().trimmingQuotes)' in a string")
        }
        if let simple {
            out.append(simple)
            position += 2
            return
        }
        position += 2
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                  bytes[position + 1] == UInt8(ascii: "u") else {
                throw fail("lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
            }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw fail("lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape in a string") }
        out.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw fail("expected 4 hex digits after \\u, got the end of the file") }
            let b = bytes[position]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("expected 4 hex digits after \\u, got \(describeByte())")
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func number() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw fail("expected a digit in a number, got \(describeByte())")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw fail("leading zeros are not allowed in a number")
            }
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("expected a digit after '.', got \(describeByte())")
            }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("expected a digit in an exponent, got \(describeByte())")
            }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        let integer = isInteger ? Int(text) : nil
        return JSONNumber(text: text, integer: integer, isOutOfRange: isInteger && integer == nil)
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
}

extension String {
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
