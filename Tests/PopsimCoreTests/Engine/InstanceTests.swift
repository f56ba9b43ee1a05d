import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// Several instances of a popup (`InstancePolicy.perRequest`, issue 43): a request of a popup on
/// screen or waiting is `X#2`, `X#3`, … with its own phases, timers and requests; the properties
/// and replay count an instance as its popup; JSON names it by its popup and number; a strategy
/// whose library merges never makes one.
@Suite("engine: instances of a popup")
struct InstanceTests {
    func entrykit(_ popups: String, _ events: String, expect: String = "[]", options: String = "{}") -> String {
        scenarioText(strategy: "entrykit", popups: popups, events: events, options: options, expect: expect)
    }

    /// Instances come after the file's popups and before the screens (a screen interned before
    /// moves up, in the lines too); a request takes the first of X, X#2, … that is free.
    @Test func instancesComeBeforeTheScreens() throws {
        let text = entrykit(#""a": {"duration": 1000}, "b": {}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 100, "push": "cart"}, {"at": 500, "enqueue": "a"}, {"at": 600, "enqueue": "a"}, {"at": 5000, "enqueue": "a"}"#)
        let result = try run(text)
        #expect(result.timeline.subjects == ["a", "b", "a#2", "a#3", "cart"])
        #expect(result.timeline.bases == [0, 1, 0, 0])
        #expect(result.scenario.popups.map(\.name) == ["a", "b", "a#2", "a#3"])
        #expect(result.timeline.instanceNumber(3) == 3 && result.timeline.instanceNumber(1) == nil && result.timeline.instanceNumber(4) == nil)
        let lines = try timeline(text)
        #expect(lines.contains(" 100  nav      cart\n"))
        // At 600 `a` is still leaving (popped at 500): not free; a#2 is on screen: a#3. At 5000
        // every one is off screen: `a` again.
        #expect(lines.contains(" 600  enqueue  a#3\n 600  hide     a#2   replaced\n 600  show     a#3\n"))
        #expect(lines.contains("5000  enqueue  a\n"))
    }

    /// The free instances are taken lowest number first, whatever order they were freed in:
    /// a#3 (tapped, 100 ms exit) is free before `a` (popped, 1 s) and a#2 (popped later); at 1900
    /// four requests go to a, a#2, a#3, then a new a#4. a#5, made after a screen was named, still
    /// comes before it among the subjects.
    @Test func freeInstancesAreTakenLowestFirst() throws {
        let text = entrykit(#""a": {"duration": "forever", "hideMs": 100}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 400, "enqueue": "a"}, {"at": 800, "enqueue": "a"}, "#
                            + #"{"at": 1200, "dismiss": "a"}, {"at": 1900, "enqueue": ["a", "a", "a", "a"]}, {"at": 1950, "push": "s"}, "#
                            + #"{"at": 1960, "enqueue": "a"}"#, options: #"{"popMs": 1000}"#)
        let lines = try timeline(text)
        #expect(lines.contains("""
            1200  hide     a#3  user
            1300  gone     a#3
            1400  gone     a
            1800  gone     a#2
            1900  enqueue  a
            1900  show     a
            1900  enqueue  a#2
            1900  hide     a    replaced
            1900  show     a#2
            1900  enqueue  a#3
            1900  hide     a#2  replaced
            1900  show     a#3
            1900  enqueue  a#4
            1900  hide     a#3  replaced
            1900  show     a#4
            1950  nav      s
            1960  enqueue  a#5

            """))
        #expect(try run(text).timeline.subjects == ["a", "a#2", "a#3", "a#4", "a#5", "s"])
    }

    /// A strategy whose library merges never makes an instance: every built-in but entrykit and
    /// notistack.
    @Test(arguments: StrategyRegistry.all.map(\.name).filter { $0 != "entrykit" && $0 != "notistack" })
    func aMergingStrategyMakesNone(_ strategy: String) throws {
        let text = #"{"popsim": 1, "popups": {"a": {"duration": 1000}}, "events": [{"at": 0, "enqueue": "a"}, {"at": 10, "enqueue": "a"}, {"at": 5000, "enqueue": "a"}]}"#
        let result = try run(text, strategy: strategy)
        #expect(result.timeline.bases.isEmpty && result.timeline.subjects == ["a"])
    }

    /// `wait X` judges each instance's requests: the late one is an instance's.
    @Test func waitJudgesEveryInstance() throws {
        let popups = #""s": {"arrival": "queue", "duration": 1000}"#
        let events = #"{"at": 0, "enqueue": "s"}, {"at": 100, "enqueue": "s"}, {"at": 200, "enqueue": "s"}"#
        // s shows at 0; s#2 at 1600 (waited 1500); s#3 at 3200 (waited 3000).
        let fails = try run(entrykit(popups, events, expect: #"["wait s <= 2999"]"#))
        let verdict = PropertyJudge.verdicts(fails)[0]
        #expect(verdict.failure?.at == 3200)
        #expect(verdict.failure?.text == "s waited 3000 ms (requested at 200 ms, shown at 3200 ms)")
        let holds = try run(entrykit(popups, events, expect: #"["wait s <= 3000"]"#))
        #expect(PropertyJudge.verdicts(holds)[0].holds)
    }

    /// `shows X`, `X before Y`, `shown X` and `visible` see the instances as X.
    @Test func theOtherPropertiesCountInstancesAsTheirPopup() throws {
        let text = entrykit(#""s": {}, "t": {}"#, #"{"at": 0, "enqueue": "s"}, {"at": 1000, "enqueue": "s"}, {"at": 1100, "enqueue": "t"}"#,
                            expect: #"["shows s <= 1 per 5000", "s before t", "visible <= 1"]"#)
        let verdicts = PropertyJudge.verdicts(try run(text))
        #expect(verdicts[0].failure?.text == "2 shows of s from 0 to 1000 ms, within 5000 ms")
        #expect(verdicts[1].holds)
        // s popping while s#2 enters: two on screen, as with any override.
        #expect(verdicts[2].failure?.text.hasPrefix("2 on screen at 1000 ms") == true)
    }

    /// JSON names an instance by its file's popup and its number, in the timeline and the
    /// per-popup summary; text by `X#n`.
    @Test func jsonNamesThePopupAndTheNumber() throws {
        let result = try run(entrykit(#""s": {}"#, #"{"at": 0, "enqueue": "s"}, {"at": 1000, "enqueue": "s"}"#))
        let json = JSONRenderer.render(result)
        #expect(json.contains(#"{"t": 1000, "event": "show", "popup": "s", "instance": 2}"#))
        #expect(json.contains(#"{"popup": "s", "instance": 2, "enqueued": 1000, "firstShown": 1000, "wait": 0}"#))
        #expect(TextRenderer.render(result).contains("1000  show     s#2\n"))
    }

    /// Replay: production's `shown` rows name the popup; a run's instance shows agree with them,
    /// and every figure of the popup counts its instances.
    @Test func replayCountsAnInstanceAsItsPopup() throws {
        let catalog = try loadScenario(#"{"popsim": 1, "strategy": "entrykit", "popups": {"s": {"duration": 1000}}}"#).get()
        let entrykit = try RunConfiguration.resolve(catalog, strategy: "entrykit", overrides: [])
        let replayer = Replayer(catalog: catalog, columns: [Replayer.Column(label: "entrykit", configuration: entrykit, catalog: catalog)],
                                limits: RunLimits(), file: "t.csv")
        var tallies = replayer.emptyTallies()
        try ReplayGroupsTests().replay("user,time,action,popup,value\nu,0,enqueue,s,\nu,0,shown,s,\nu,500,enqueue,s,\nu,500,shown,s,\n",
                                       with: replayer, into: &tallies)
        tallies.completeGroups(replayer.groups)
        #expect(tallies.columns[0].agreeing == 1)
        #expect(tallies.columns[0].requests == 2 && tallies.columns[0].shown == 2)
        #expect(tallies.columnGroups[0].map(\.requests) == [2])
        #expect(tallies.columnGroups[0].map(\.shown) == [2])
    }
}
