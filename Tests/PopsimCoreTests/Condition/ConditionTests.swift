import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI

@Suite struct ConditionTests {
    let schema = StateSchema(names: ["screen", "count", "loggedIn"],
                             initial: [.string("home"), .integer(3), .boolean(false)])

    func holds(_ text: String, _ state: [StateValue]? = nil) throws -> Bool {
        try ConditionParser.parse(text, schema: schema).holds(state ?? schema.initial)
    }

    @Test func evaluatesTheWholeLanguage() throws {
        #expect(try holds("screen == 'home'"))
        #expect(try holds(#"screen != "splash""#))
        #expect(try holds("count >= 3 && count < 4 && count <= 3 && count > -1"))
        #expect(try holds("!loggedIn || count == 0"))
        #expect(try !holds("loggedIn && (screen == 'home')"))
        #expect(try holds("!(loggedIn) && true != false"))
        #expect(try holds("loggedIn == false"))
        #expect(try holds("count == 4", [.string("home"), .integer(4), .boolean(false)]))
        // && binds tighter than ||.
        #expect(try holds("true || false && false"))
    }

    @Test(arguments: [
        ("count == 'x'", 6, "cannot compare an integer with a string using '=='"),
        ("screen < 'z'", 7, "'<' compares integers, got a string"),
        ("count && true", 0, "'&&' needs true or false, got an integer"),
        ("1 < count < 5", 10, "comparisons cannot be chained; use '&&'"),
        ("screen == 'home", 10, "unterminated string literal"),
        ("count == 1.5", 9, "numbers in conditions are integers"),
        ("screen == home", 10, #"unknown state name "home""#),
        ("", 0, "expected a value, got the end of the condition"),
        ("count == 1 )", 11, "expected an operator or the end of the condition, got ')'"),
        ("count == 99999999999999999999", 9, "integer 99999999999999999999 is out of range"),
    ])
    func reportsTheProblemAndWhere(_ text: String, _ offset: Int, _ message: String) {
        let unknown = message.hasPrefix("unknown state name") ? "home" : nil
        #expect(throws: ConditionParser.Failure(offset: offset, message: message, unknownName: unknown)) {
            _ = try ConditionParser.parse(text, schema: schema)
        }
    }
}
