import Testing
@testable import PopsimCore

/// Millisecond times read from bytes against `Int(String)` with the same bounds: every length
/// from 1 to 21 digits, with a sign, and with one byte that is not a digit at every place (the
/// short way for 9 to 16 digits and the general one agree).
@Suite struct TraceTimeTests {
    /// At most 19 digits (leading zeros count), below 2⁶² either way.
    static func expected(_ text: String) -> Int? {
        guard let v = Int(text), !text.hasPrefix("+"), text.filter(\.isNumber).count <= 19, v.magnitude < UInt(TraceTime.limit) else { return nil }
        return v
    }

    @Test func integersOfEveryLength() {
        var state: UInt64 = 3
        func digit() -> Character {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Character(String((state >> 33) % 10))
        }
        for length in 1...21 {
            for _ in 0..<20 {
                let digits = String((0..<length).map { _ in digit() })
                for text in [digits, "-" + digits, "9" + String(repeating: "9", count: length)] {
                    #expect(TraceTime.milliseconds(text, unit: .ms) == Self.expected(text), "\(text)")
                }
                for k in 0..<length {
                    for bad: Character in ["/", ":", "a", " ", "-"] {
                        var chars = Array(digits)
                        chars[k] = bad
                        let text = String(chars)
                        #expect(TraceTime.milliseconds(text, unit: .ms) == Self.expected(text), "\(text)")
                    }
                }
            }
        }
        #expect(TraceTime.milliseconds("1794787231100", unit: .ms) == 1_794_787_231_100)
        #expect(TraceTime.milliseconds("", unit: .ms) == nil)
        #expect(TraceTime.milliseconds("-", unit: .ms) == nil)
    }
}
