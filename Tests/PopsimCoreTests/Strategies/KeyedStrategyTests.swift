import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// semantics/seeds.md §5.3 and §7.9 as issue 5 fixes them, rule by rule.
@Suite("keyed: QHHeapManager version 3")
struct KeyedStrategyTests {
    func scenario(_ popups: String, _ events: String, state: String = "{}", options: String = "{}") -> String {
        scenarioText(strategy: "keyed", popups: popups, events: events, state: state, options: options)
    }

    @Test func anArrivalIntoAnEmptyKeyShowsAtOnceWithoutItsGate() throws {
        let text = scenario(#""a": {"when": "false"}"#, #"{"at": 3, "enqueue": "a"}"#)
        #expect(try timeline(text) == "3  enqueue  a\n3  show     a\n")
    }

    @Test func theGateIsEvaluatedWhenTheHeadCloses() throws {
        let text = scenario(#""a": {}, "b": {"when": "ready"}"#,
                            #"{"at": 0, "enqueue": ["a", "b"]}, {"at": 5, "set": {"ready": true}}, {"at": 10, "dismiss": "a"}"#,
                            state: #"{"ready": false}"#)
        #expect(try timeline(text).hasSuffix("10  hide     a  user\n10  show     b\n"))
    }

    @Test func aFailingGateStallsTheKeyUntilTriggerDropsTheHeadUnseen() throws {
        let text = scenario(#""a": {}, "b": {"when": "false"}, "c": {}, "other": {"key": "k2"}"#,
                            #"{"at": 0, "enqueue": ["a", "b", "c", "other"]}, {"at": 10, "dismiss": "a"}, {"at": 20, "trigger": true}"#,
                            options: #"{"slots": 2}"#)
        // The trigger leaves key k2 alone: its head is shown.
        #expect(try timeline(text) == """
             0  enqueue  a
             0  show     a
             0  enqueue  b
             0  enqueue  c
             0  enqueue  other
             0  show     other
            10  hide     a      user
            20  drop     b      condition
            20  show     c

            """)
    }

    @Test func aHeadStillStuckAtTheEndIsStalled() throws {
        let text = scenario(#""a": {}, "b": {"when": "false"}"#, #"{"at": 0, "enqueue": ["a", "b"]}, {"at": 10, "dismiss": "a"}"#)
        let result = try run(text)
        #expect(TimelineText.render(result.timeline).hasSuffix("10  hide     a  user\n10  warning  b  stalled\n"))
        #expect(result.pending.map { result.scenario.name(of: $0) } == ["b"])
    }

    @Test func keysAreIndependentAndOverlapUnlessSlotsAllowIt() throws {
        let popups = #""a": {"key": "x"}, "b": {"key": "y"}"#
        let events = #"{"at": 0, "enqueue": ["a", "b"]}"#
        #expect(try timeline(scenario(popups, events)) == "0  enqueue  a\n0  show     a\n0  enqueue  b\n0  warning  b  overlap\n0  show     b\n")
        #expect(try timeline(scenario(popups, events, options: #"{"slots": 2}"#)) == "0  enqueue  a\n0  show     a\n0  enqueue  b\n0  show     b\n")
    }

    @Test func clearEmptiesEveryQueueAndLeavesTheScreenAlone() throws {
        let text = scenario(#""a": {}, "b": {}"#, #"{"at": 0, "enqueue": ["a", "b"]}, {"at": 5, "clear": true}, {"at": 9, "dismiss": "a"}"#)
        let result = try run(text)
        #expect(TimelineText.render(result.timeline).hasSuffix("0  show     a\n0  enqueue  b\n5  drop     b  cleared\n9  hide     a  user\n"))
        #expect(result.pending.isEmpty)
    }

    /// The app shows the next head at `goNext`; when that is the same popup still leaving, popsim
    /// (one of each popup on screen) shows it at its `gone` instead of losing it.
    @Test func aHeadStillLeavingShowsAtItsGone() throws {
        let text = scenario(#""a": {"hideMs": 300}, "b": {}"#,
                            #"{"at": 0, "enqueue": ["a", "a", "b"]}, {"at": 1000, "dismiss": "a"}, {"at": 2000, "dismiss": "a"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
               0  enqueue  a
               0  enqueue  b
            1000  hide     a  user
            1300  gone     a
            1300  show     a
            2000  hide     a  user
            2000  warning  b  overlap
            2000  show     b
            2300  gone     a

            """)
    }
}
