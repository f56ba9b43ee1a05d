import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// semantics/seeds.md §3, rule by rule.
@Suite("ssp: SSPPopupCenter")
struct SSPStrategyTests {
    func scenario(_ popups: String, _ events: String, options: String = "{}") -> String {
        scenarioText(strategy: "ssp", popups: popups, events: events, options: options)
    }

    @Test func highGoesBehindTheHeadOnlyWhenMoreThanOneIsQueued() throws {
        let text = scenario(#""a": {}, "h1": {"level": "high"}, "b": {}, "h2": {"level": "high"}"#,
                            #"{"at": 0, "enqueue": ["a", "h1", "b", "h2"]}, {"at": 1, "dismiss": "a"}, {"at": 2, "dismiss": "h2"}, {"at": 3, "dismiss": "h1"}"#)
        #expect(try timeline(text).hasSuffix("1  hide     a   user\n1  show     h2\n2  hide     h2  user\n2  show     h1\n3  hide     h1  user\n3  show     b\n"))
    }

    /// Also: the first show comes at the idle pass after the enqueue event (one batch, one pass).
    @Test func theNextHeadShowsWhenTheHideStartsNotWhenItEnds() throws {
        let text = scenario(#""a": {}, "b": {}"#, #"{"at": 0, "enqueue": ["a", "b"]}, {"at": 10, "dismiss": "a"}"#,
                            options: #"{"hideMs": 100}"#)
        #expect(try timeline(text) == """
              0  enqueue  a
              0  enqueue  b
              0  show     a
             10  hide     a  user
             10  warning  b  overlap
             10  show     b
            110  gone     a

            """)
    }

    @Test func showIsLoggedOncePerHeadChange() throws {
        let text = scenario(#""a": {}"#, #"{"at": 0, "enqueue": "a"}, {"at": 5, "trigger": true}, {"at": 9, "enqueue": "a"}"#)
        #expect(try timeline(text) == "0  enqueue  a\n0  show     a\n9  enqueue  a\n9  drop     a  duplicate\n")
    }

    @Test func hidingANonHeadRemovesTheHeadAndKeepsItself() throws {
        let text = scenario(#""a": {}, "b": {}, "c": {}"#, #"{"at": 0, "enqueue": ["a", "b", "c"]}, {"at": 5, "remove": "b"}"#)
        let result = try run(text)
        #expect(TimelineText.render(result.timeline).hasSuffix("5  warning  a  untracked\n5  warning  b  overlap\n5  show     b\n"))
        #expect(result.pending.map { result.scenario.name(of: $0) } == ["c"])
    }

    @Test func removingTheShownHeadHidesIt() throws {
        let text = scenario(#""a": {}, "b": {}"#, #"{"at": 0, "enqueue": ["a", "b"]}, {"at": 5, "remove": "a"}"#)
        #expect(try timeline(text).hasSuffix("5  hide     a  removed\n5  show     b\n"))
    }

    @Test func cancellingTheHeadBeforeItShowsDropsIt() throws {
        // Two cancels in one run-loop pass (one `then` list): the first removes the shown head
        // (a, 'untracked'), which makes b the head before any idle pass; the second then takes b
        // out unseen: 'drop removed'.
        let text = scenario(#""a": {}, "b": {}, "c": {}"#,
                            #"{"at": 0, "enqueue": ["a", "b", "c"]}, {"at": 5, "push": "next", "then": [{"remove": "c"}, {"remove": "b"}]}"#)
        let result = try run(text)
        #expect(TimelineText.render(result.timeline).hasSuffix("5  nav      next\n5  warning  a     untracked\n5  drop     b     removed\n5  warning  c     overlap\n5  show     c\n"))
    }

    @Test func eachScriptEventIsAPassOfItsOwn() throws {
        // The same two cancels as two events: b becomes the head and shows in the first event's
        // pass, so the second cancel hides it on screen.
        let text = scenario(#""a": {}, "b": {}, "c": {}"#,
                            #"{"at": 0, "enqueue": ["a", "b", "c"]}, {"at": 5, "remove": "c"}, {"at": 5, "remove": "b"}"#)
        #expect(try timeline(text).hasSuffix("5  warning  a  untracked\n5  warning  b  overlap\n5  show     b\n5  hide     b  removed\n5  warning  c  overlap\n5  show     c\n"))
    }
}
