import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// semantics/seeds.md §1.3–1.6, rule by rule, with JCAlertController's 400/200 ms animations.
@Suite("jc-lifo: JCPresentQueue LIFO")
struct JCLIFOStrategyTests {
    @Test func onlyTheImmediatePredecessorIsRepresented() throws {
        // Stack [1, 2, 3]: dismissing 3 brings back 2; 1 stays hidden until 2 is dismissed.
        let text = """
            {"popsim": 1, "strategy": "jc-lifo", "popups": {"p1": {}, "p2": {}, "p3": {}},
             "events": [{"at": 0, "enqueue": ["p1", "p2", "p3"]}, {"at": 2000, "dismiss": "p3"}]}
            """
        let result = try run(text)
        #expect(TimelineText.render(result.timeline).hasSuffix("""
            1600  shown    p3
            2000  hide     p3  user
            2200  gone     p3
            2210  show     p2
            2610  shown    p2

            """))
        #expect(result.pending.map { result.scenario.name(of: $0) } == ["p1"])
    }

    @Test func requestsInsideTheRepresentDelayAreHeldBackThenPresentedInOrder() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-lifo", "popups": {"a": {}, "b": {}, "c": {}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 1000, "dismiss": "a"},
                        {"at": 1205, "enqueue": ["b", "c"]}]}
            """
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             400  shown    a
            1000  hide     a  user
            1200  gone     a
            1205  enqueue  b
            1205  enqueue  c
            1210  show     b
            1610  shown    b
            1610  hide     b  temporary
            1810  gone     b
            1810  show     c
            2210  shown    c

            """)
    }

    @Test func aTemporaryHideRunsNoButtonActions() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-lifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"a": {"respond": {"after": 100}, "then": {"close": [{"enqueue": "c"}]}}, "b": {}, "c": {}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 50, "enqueue": "b"}, {"at": 500, "dismiss": "b"}]}
            """
        // a leaves at 50 (temporary: no `then`), comes back at 510, is answered at 610: only then c.
        #expect(try timeline(text) == """
              0  enqueue  a
              0  show     a
             50  enqueue  b
             50  hide     a  temporary
             50  show     b
            500  hide     b  user
            510  show     a
            610  hide     a  user
            610  enqueue  c
            620  show     c

            """)
    }

    @Test func aRequestAlreadyInTheStackIsNotAddedTwice() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-lifo", "options": {"showMs": 0, "hideMs": 0}, "popups": {"a": {}, "b": {}},
             "events": [{"at": 0, "enqueue": ["a", "b"]}, {"at": 10, "enqueue": "a"}, {"at": 100, "dismiss": "a"},
                        {"at": 200, "dismiss": "b"}]}
            """
        let result = try run(text)
        // a's second request merges into a's place in the stack (`drop … duplicate`) yet still pushes
        // b away again; a keeps its one place below b: when a is dismissed, b (above it) comes back.
        #expect(TimelineText.render(result.timeline) == """
              0  enqueue  a
              0  show     a
              0  enqueue  b
              0  hide     a  temporary
              0  show     b
             10  enqueue  a
             10  drop     a  duplicate
             10  hide     b  temporary
             10  show     a
            100  hide     a  user
            110  show     b
            200  hide     b  user

            """)
        #expect(result.pending.isEmpty)
    }

    @Test func anArrivalDuringAUserDismissalStallsTheQueue() throws {
        let result = try run(String(decoding: try FileIO.read(packageRoot.path + "/Scenarios/jc-lifo-dismiss-race.json"), as: UTF8.self))
        let text = TimelineText.render(result.timeline)
        #expect(text.contains("1500  warning  second  stalled\n"))
        #expect(!text.contains("show     second"))
        #expect(result.pending.map { result.scenario.name(of: $0) } == ["second", "third"])
    }
}
