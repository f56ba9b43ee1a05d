import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI

@Suite struct JSONReaderTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONReader.parse(Array(text.utf8)) }

    @Test func keepsKeyOrderDuplicatesAndLocations() throws {
        let value = try parse("{\n  \"b\": 1,\n  \"a\": [true, null],\n  \"b\": \"x\"\n}")
        guard case .object(let members) = value.kind else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", "b"])
        #expect(members.map(\.keyLocation) == [SourceLocation(line: 2, column: 3), SourceLocation(line: 3, column: 3),
                                                SourceLocation(line: 4, column: 3)])
        #expect(members[1].value.location == SourceLocation(line: 3, column: 8))
        guard case .array(let items) = members[1].value.kind else { Issue.record("not an array"); return }
        #expect(items[1].location == SourceLocation(line: 3, column: 15))
    }

    @Test func numbersKeepTheirTextAndIntegerValue() throws {
        for (text, integer, out) in [("42", 42, false), ("-7", -7, false), ("1.0", nil, false), ("2e3", nil, false),
                                     ("9223372036854775807", Int.max, false), ("9223372036854775808", nil, true)] {
            guard case .number(let n) = try parse(text).kind else { Issue.record("not a number"); continue }
            #expect(n.text == text)
            #expect(n.integer == integer)
            #expect(n.isOutOfRange == out)
        }
    }

    @Test func decodesEscapesAndUnicode() throws {
        let value = try parse(#""a\"b\\c\/\n\u00e9\ud83d\ude00 ñ""#)
        guard case .string(let s) = value.kind else { Issue.record("not a string"); return }
        #expect(s == "a\"b\\c/\né😀 ñ")
    }

    @Test func acceptsABOMAndCRLF() throws {
        let value = try JSONReader.parse([0xEF, 0xBB, 0xBF] + Array("{\r\n\"a\": 1\r\n}".utf8))
        guard case .object(let members) = value.kind else { Issue.record("not an object"); return }
        #expect(members.first?.value.location == SourceLocation(line: 2, column: 6))
    }

    @Test(arguments: [
        ("01", "1:2: leading zeros are not allowed in a number"),
        ("\"\\x\"", "1:3: invalid escape '\\x' in a string"),
        ("\"\\ud800\"", "1:8: lone surrogate \\uD800 in a string"),
        ("tru", "1:1: expected a value, got 't'"),
        ("{\"a\" 1}", "1:6: expected ':' after an object key, got '1'"),
        ("[1 2]", "1:4: expected ',' or ']' in an array, got '2'"),
        ("{} {}", "1:4: expected the end of the file after the top-level value, got '{'"),
        ("-", "1:2: expected a digit in a number, got the end of the file"),
        ("\"abc", "1:5: expected a closing '\"', got the end of the file"),
    ])
    func reportsSyntaxErrorsWithPlace(_ input: String, _ expected: String) {
        do {
            _ = try parse(input)
            Issue.record("no error for \(input)")
        } catch {
            #expect("\(error.location): \(error.message)" == expected)
        }
    }

    @Test func rejectsOverlongAndSurrogateUTF8() {
        for bytes: [UInt8] in [[0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22]] {
            #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(bytes) }
        }
    }
}
