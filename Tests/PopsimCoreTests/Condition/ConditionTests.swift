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

    /// `holds` reads the common shapes in place; it says what `evaluate` says (true exactly when
    /// the value is `.boolean(true)`) for every condition of the language over many states.
    @Test func holdsSaysWhatEvaluateSays() throws {
        let texts = ["screen == 'home'", "screen != 'home'", "'home' == screen", "count < 3", "count >= 3", "loggedIn",
                     "!loggedIn", "!(count == 3)", "loggedIn && count > 1", "screen == 'cart' || count == 3",
                     "loggedIn == true", "true", "false", "(count > 1) == loggedIn", "!(screen == 'home' && !loggedIn)"]
        let states: [[StateValue]] = [("home", 3, false), ("cart", 0, true), ("", -1, true), ("home", 4, true)].map { s, n, b in
            [.string(s), .integer(n), .boolean(b)]
        }
        for text in texts {
            let condition = try ConditionParser.parse(text, schema: schema)
            for state in states {
                #expect(condition.holds(state) == (condition.evaluate(state) == .boolean(true)), "\(text) in \(state)")
            }
        }
        // Not vacuous: each shape both holds and fails somewhere.
        #expect(try holds("loggedIn", states[1]) && !holds("loggedIn", states[0]))
        #expect(try holds("screen == 'home'", states[3]) && !holds("screen == 'home'", states[1]))
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
