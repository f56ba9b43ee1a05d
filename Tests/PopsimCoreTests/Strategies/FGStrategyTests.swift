import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// semantics/seeds.md §2, rule by rule. The goldens `Scenarios/fg-*.json` pin the worked cases;
/// these pin the rules the goldens do not isolate.
@Suite("fg: FGPopupScheduler 0.6.0")
struct FGStrategyTests {
    func scenario(order: String = "priority+fifo", popups: String, events: String, state: String = "{}") -> String {
        """
        {"popsim": 1, "strategy": "fg", "options": {"order": "\(order)"}, "state": \(state),
         "popups": {\(popups)}, "events": [\(events)]}
        """
    }

    @Test func theFIFOLIFOOrderIsRejectedWithWhatTheLibraryDoes() {
        #expect(loadErrors(#"{"popsim": 1, "strategy": "fg", "options": {"order": "fifo|lifo"}}"#) == [
            #"test.json:1:54: options.order: expected one of fifo, lifo, priority, priority+fifo, priority+lifo; got "fifo|lifo" (FGPopupScheduler silently shows nothing for FIFO|LIFO)"#,
        ])
        #expect(throws: PopsimError.configuration(.badOptionValue(option: "order", expected: "one of fifo, lifo, priority, priority+fifo, priority+lifo",
                                                                 got: "lifo+fifo", note: "FGPopupScheduler silently shows nothing for FIFO|LIFO"))) {
            _ = try run(scenario(popups: "", events: ""), options: ["order=lifo+fifo"])
        }
    }

    @Test func negativePrioritiesAreRejectedUnderFGOnly() throws {
        let text = #"{"popsim": 1, "popups": {"a": {"priority": -3}}, "events": [{"at": 0, "enqueue": "a"}]}"#
        #expect(throws: PopsimError.input(LoadErrors([LoadError(file: "test.json", location: SourceLocation(line: 1, column: 44),
                                              path: JSONPath.root.appending("popups").appending("a").appending("priority"),
                                              problem: .expected("an integer >= 0 under fg (FGPopupScheduler's priorities are unsigned)", got: "-3"))]))) {
            _ = try run(text, strategy: "fg")
        }
        #expect(try timeline(text, strategy: "jc-fifo").contains("show"))
    }

    @Test func theDefaultPriorityIsNormal() throws {
        // No priority = normal (100): it ties with an explicit 100 (FIFO tie) and beats `low`.
        let text = scenario(popups: #""low": {"priority": "low"}, "plain": {}, "hundred": {"priority": 100}"#,
                            events: #"{"at": 0, "suspend": true}, {"at": 0, "enqueue": ["low", "hundred", "plain"]}, {"at": 0, "resume": true}, {"at": 10, "dismiss": "hundred"}, {"at": 20, "dismiss": "plain"}"#)
        #expect(try timeline(text).hasSuffix("""
             0  show     hundred
            10  hide     hundred  user
            10  show     plain
            20  hide     plain    user
            20  show     low

            """))
    }

    @Test func lifoPushesInFrontOfTheShownPopupWithoutInterruptingIt() throws {
        let text = scenario(order: "lifo", popups: #""s": {"switch": "discard"}, "a": {"priority": "veryHigh"}, "b": {}"#,
                            events: #"{"at": 0, "enqueue": "s"}, {"at": 5, "enqueue": ["a", "b"]}, {"at": 10, "dismiss": "s"}, {"at": 20, "dismiss": "b"}"#)
        #expect(try timeline(text) == """
             0  enqueue  s
             0  show     s
             5  enqueue  a
             5  enqueue  b
            10  hide     s  user
            10  show     b
            20  hide     b  user
            20  show     a

            """)
    }

    @Test func plainFIFOAndLIFOHaveNoSwitchLogic() throws {
        for order in ["fifo", "lifo"] {
            let text = scenario(order: order, popups: #""s": {"switch": "latent"}, "n": {"priority": "veryHigh"}"#,
                                events: #"{"at": 0, "enqueue": "s"}, {"at": 5, "enqueue": "n"}"#)
            #expect(try timeline(text) == "0  enqueue  s\n0  show     s\n5  enqueue  n\n")
        }
    }

    @Test func aShownPopupIsNeverCheckedAgain() throws {
        let text = scenario(popups: #""a": {"when": "ok"}"#,
                            events: #"{"at": 0, "enqueue": "a"}, {"at": 5, "set": {"ok": false}}, {"at": 9, "dismiss": "a"}"#,
                            state: #"{"ok": true}"#)
        #expect(try timeline(text) == "0  enqueue  a\n0  show     a\n9  hide     a  user\n")
    }

    @Test func aStateChangeIsPickedUpAtTheIdlePassRightAfterIt() throws {
        let text = scenario(popups: #""a": {"when": "n >= 2"}"#,
                            events: #"{"at": 0, "enqueue": "a"}, {"at": 7, "set": {"n": 1}}, {"at": 8, "set": {"n": 2}}"#,
                            state: #"{"n": 0}"#)
        #expect(try timeline(text) == "0  enqueue  a\n8  show     a\n")
    }

    @Test func aDiscardConditionIsOnlyAppliedWhenTheScanReachesIt() throws {
        // `gate` fails and discards itself, but only once a scan reaches it: while `first` (higher,
        // passing) is chosen, the scan stops before it.
        let text = scenario(popups: #""first": {"priority": "high"}, "gate": {"when": "false", "untriggered": "discard"}, "last": {"priority": "low"}"#,
                            events: #"{"at": 0, "suspend": true}, {"at": 0, "enqueue": ["gate", "first", "last"]}, {"at": 0, "resume": true}, {"at": 50, "dismiss": "first"}"#)
        #expect(try timeline(text).hasSuffix("""
             0  resume   -
             0  show     first
            50  hide     first  user
            50  drop     gate   condition
            50  show     last

            """))
    }

    @Test func triggerAndResumeMakeAnAttemptAtOnce() throws {
        let text = scenario(popups: #""a": {}"#,
                            events: #"{"at": 0, "suspend": true}, {"at": 1, "enqueue": "a"}, {"at": 2, "trigger": true}, {"at": 3, "resume": true}"#)
        // A trigger while suspended does nothing; resume shows at once.
        #expect(try timeline(text) == "0  suspend  -\n1  enqueue  a\n3  resume   -\n3  show     a\n")
    }

    @Test func clearWithAnAnimatedDismissalHoldsTheSlotUntilGone() throws {
        let text = scenario(popups: #""a": {"hideMs": 300}, "b": {}"#,
                            events: #"{"at": 0, "enqueue": "a"}, {"at": 10, "clear": true}, {"at": 20, "enqueue": "b"}"#)
        #expect(try timeline(text) == """
              0  enqueue  a
              0  show     a
             10  hide     a  cleared
             20  enqueue  b
            310  gone     a
            310  show     b

            """)
    }

    @Test func discardWithAnAnimatedDismissalShowsTheNewcomerAtGone() throws {
        let text = scenario(popups: #""s": {"switch": "discard", "hideMs": 100}, "n": {"priority": "high"}"#,
                            events: #"{"at": 0, "enqueue": "s"}, {"at": 10, "enqueue": "n"}"#)
        #expect(try timeline(text) == """
              0  enqueue  s
              0  show     s
             10  enqueue  n
             10  hide     s  preempted
            110  gone     s
            110  show     n

            """)
    }

    @Test func awaitIsNeverPreemptedEvenAtEqualPriorityUnderTheLIFOTie() throws {
        let text = scenario(order: "priority+lifo", popups: #""s": {}, "n": {}"#,
                            events: #"{"at": 0, "enqueue": "s"}, {"at": 10, "enqueue": "n"}"#)
        #expect(try timeline(text) == " 0  enqueue  s\n 0  show     s\n10  enqueue  n\n")
    }

    @Test func theNextPopupAppearsAtTheIdleAfterAPlainDismissal() throws {
        // The dismissal and a new enqueue at the same instant are two run-loop passes: the idle
        // pass after the dismissal shows the queued popup before the newcomer arrives.
        let text = scenario(popups: #""a": {}, "queued": {"priority": "low"}, "late": {"priority": "high"}"#,
                            events: #"{"at": 0, "enqueue": ["a", "queued"]}, {"at": 10, "dismiss": "a"}, {"at": 10, "enqueue": "late"}"#)
        #expect(try timeline(text).hasSuffix("10  hide     a       user\n10  show     queued\n10  enqueue  late\n"))
    }
}
