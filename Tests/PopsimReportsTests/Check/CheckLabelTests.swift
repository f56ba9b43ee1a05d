import Testing
@testable import PopsimCore
@testable import PopsimReports

/// A timeline's name in JUnit is unique within its class, and the commands that accept a failing
/// check group its scenarios by strategy, each word safe for a shell.
@Suite struct CheckLabelTests {
    static func outcome(_ scenario: String, _ label: String?, strategy: String? = nil, _ verdict: CheckOutcome.Verdict) -> CheckOutcome {
        var o = CheckOutcome(scenario: scenario, strategy: strategy ?? label, goldenPath: label.map { "\(scenario).\($0).timeline" }, verdict: verdict)
        o.label = label
        return o
    }

    @Test func junitNamesAreUniqueWithinAClass() {
        let outcomes = [Self.outcome("a.json", "fg", .pass), Self.outcome("a.json", "fg", .pass), Self.outcome("b.json", "fg", .pass),
                        Self.outcome("a.json", "fg (2)", .pass), Self.outcome("a.json", nil, .missing), Self.outcome("a.json", nil, .missing)]
        #expect(JUnitReport.uniqueNames(outcomes) == ["fg", "fg (2)", "fg", "fg (2) (2)", "load", "load (2)"])
        let xml = JUnitReport.render(outcomes) { _ in [] }
        #expect(xml.contains(#"<testcase classname="a.json" name="fg (2)" time="0.000"/>"#))
    }

    @Test func acceptCommandsGroupByStrategyAndQuote() {
        var policy = Self.outcome("it's.json", "policy-team", strategy: "policy", .differs(diff: ""))
        policy.recordArguments = " --policy rules/team.json"
        let outcomes = [Self.outcome("a.json", "fg", .differs(diff: "")), Self.outcome("b c.json", "fg", .missing),
                        Self.outcome("d.json", "fg", .pass), policy, Self.outcome("a.json", "fg", .differs(diff: "")),
                        Self.outcome("e.json", "jc-fifo", .error(.usage("x"))), Self.outcome("f.json", "jc-fifo", .unresolved("why"))]
        #expect(CheckReport.acceptCommands(outcomes) == [
            "popsim check a.json 'b c.json' --strategy fg --update",
            #"popsim check 'it'\''s.json' --strategy policy --policy rules/team.json --update"#,
        ])
        #expect(CheckReport.acceptAdvice([Self.outcome("d.json", "fg", .pass)]) == "")
    }

    /// A property is known to fail under the golden's label or the strategy's name; it splits
    /// into broken, known, and held though known.
    @Test func judgeSplitsByKnownToFail() {
        let e = { (text: String, known: [String]) in Expectation(property: .noPending, text: text, location: SourceLocation(line: 1, column: 1), knownToFail: known) }
        let broken = PropertyVerdict.Failure(at: 0, evidence: .stillQueued(names: ["x"], end: 0))
        var o = Self.outcome("s.json", "policy-team", strategy: "policy", .pass)
        o.judge([PropertyVerdict(expectation: e("p1", []), failure: broken),
                 PropertyVerdict(expectation: e("p2", ["policy-team"]), failure: broken),
                 PropertyVerdict(expectation: e("p3", ["policy"]), failure: nil),
                 PropertyVerdict(expectation: e("p4", ["fg"]), failure: nil)])
        #expect(o.brokenProperties.map(\.expectation.text) == ["p1"])
        #expect(o.knownFailures.map(\.expectation.text) == ["p2"])
        #expect(o.unexpectedPasses.map(\.expectation.text) == ["p3"])
        #expect(!o.passed && !o.xfailed)
    }
}
