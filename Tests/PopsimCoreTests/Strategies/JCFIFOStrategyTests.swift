import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// semantics/seeds.md §1.2: one serial chain, next present at the previous popup's `gone`.
@Suite("jc-fifo: JCPresentQueue FIFO")
struct JCFIFOStrategyTests {
    @Test func theNextPresentStartsAtThePreviousGoneWithNoDelay() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {"hideMs": 350}, "b": {"showMs": 100}},
             "events": [{"at": 0, "enqueue": ["a", "b"]}, {"at": 1000, "dismiss": "a"}, {"at": 1400, "dismiss": "b"}]}
            """
        // b cannot be answered at 1400: it is still presenting (1350 → 1450).
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
               0  enqueue  b
             400  shown    a
            1000  hide     a  user
            1350  gone     a
            1350  show     b
            1400  warning  b  not-shown
            1450  shown    b

            """)
    }

    @Test func aRequestFromAButtonQueuesBehindEverythingWaiting() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"a": {"then": {"ok": [{"enqueue": "c"}]}}, "b": {}, "c": {}},
             "events": [{"at": 0, "enqueue": ["a", "b"]}, {"at": 100, "press": {"popup": "a", "button": "ok"}},
                        {"at": 200, "dismiss": "b"}]}
            """
        #expect(try timeline(text) == """
              0  enqueue  a
              0  show     a
              0  enqueue  b
            100  hide     a  user  ok
            100  show     b
            100  enqueue  c
            200  hide     b  user
            200  show     c

            """)
    }

    @Test func aButtonWithoutActionsAndIgnoredEventsChangeNothing() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"a": {"priority": 5, "when": "false"}, "b": {}},
             "events": [{"at": 0, "enqueue": ["a", "b"]}, {"at": 10, "suspend": true}, {"at": 20, "remove": "b"},
                        {"at": 30, "clear": true}, {"at": 40, "press": {"popup": "a", "button": "nothing"}}]}
            """
        // JCPresentQueue has no conditions, priorities, suspend, remove or clear.
        #expect(try timeline(text) == """
             0  enqueue  a
             0  show     a
             0  enqueue  b
            10  suspend  -
            40  hide     a  user  nothing
            40  show     b

            """)
    }
}
