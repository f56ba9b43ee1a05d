import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// A test strategy: shows every enqueued popup at once (even over another) and records what it is told.
struct EagerStrategy: Strategy {
    static let name = "eager"
    static let summary = "test: shows everything at once"
    static let options: [OptionSpec] = [.showMs(default: 0), .hideMs(default: 0), .navMs]
    static let buttonActions = ButtonActionTiming.atResponse

    var told: [String] = []
    var idleDecisions = 0
    var recordsIdle = false

    init(world: World) {}

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        if happening != .idle || recordsIdle { told.append("\(world.now) \(happening)") }
        switch happening {
        case .enqueued(let p) where world.phase(p) == .hidden:
            decisions.show(p)
        case .enqueued(let p):
            decisions.warn(p, .lost)
        case .timer(let token):
            decisions.drop(PopupID(token), .end)
        case .suspend:
            decisions.startTimer(after: 0, token: 0)
        case .idle where idleDecisions > 0:
            idleDecisions -= 1
            decisions.warn(nil, .stalled)
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] { [] }
}

/// A broken strategy: does whatever `mistake` says on the first enqueue.
struct BrokenStrategy: Strategy {
    static let name = "broken"
    static let summary = "test: breaks the rules"
    static let options: [OptionSpec] = [.showMs(default: 0), .hideMs(default: 0), .navMs]
    static let buttonActions = ButtonActionTiming.atResponse

    init(world: World) {}

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        guard case .enqueued(let p) = happening else { return }
        if world.popup(p).name == "showNever" {
            decisions.show(PopupID(Int(p.index) + 1))
        } else if world.popup(p).name == "hideHidden" {
            decisions.hide(p, .preempted)
        } else {
            decisions.show(p)
            decisions.show(p)
        }
    }

    func pending(in world: World) -> [PopupID] { [] }
}

func runEngine<S: Strategy>(_ type: S.Type, _ text: String, options: [OptionSetting] = []) throws -> (RunResult, S) {
    let scenario = try loadScenario(text).get()
    var settings = ResolvedOptions.defaults(of: S.options).settings
    for o in options { if let i = settings.firstIndex(where: { $0.name == o.name }) { settings[i] = o } }
    var engine = Engine<S>(scenario: scenario, options: ResolvedOptions(settings: settings),
                           limits: RunLimits(checkInvariants: true))
    let result = try engine.run()
    return (result, engine.strategy)
}

@Suite("engine: the loop of design.md §4")
struct EngineTests {
    /// The engine's options are read by their place (`ResolvedOptions.engineValues`): each
    /// reads what its name is set to, set at first or changed after, and nil when not declared.
    @Test func engineOptionsReadWhatTheirNamesAreSetTo() {
        #expect(EngineOption.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        let names = EngineOption.allCases.map(\.rawValue)
        var options = ResolvedOptions(settings: names.enumerated().map { OptionSetting(name: $0.element, value: .integer(10 + $0.offset)) })
        for (i, o) in EngineOption.allCases.enumerated() { #expect(options[o] == 10 + i) }
        options.settings[2].value = .integer(99)
        options.settings.removeLast()
        #expect(options[.navMs] == 99 && options[.duration] == nil && options[.showMs] == 10)
        #expect(ResolvedOptions(settings: [OptionSetting(name: "slots", value: .text("2"))])[.slots] == nil)
    }

    @Test func transitionsThenTimersThenEventsAtOneInstant() throws {
        // At t=100: a's show completes (transition), a's duration was set for 100 (timer: a
        // 0-ms duration fires after its transition), and two script events come in file order.
        let text = """
            {"popsim": 1, "popups": {"a": {"showMs": 100, "duration": 0}, "b": {}, "c": {}},
             "events": [{"at": 100, "enqueue": "c"}, {"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": "b"}]}
            """
        let (result, strategy) = try runEngine(EagerStrategy.self, text)
        #expect(strategy.told == [
            "0 enqueued(PopsimCore.PopupID(index: 0))",
            "100 shown(PopsimCore.PopupID(index: 0))",
            "100 dismissing(PopsimCore.PopupID(index: 0), PopsimCore.Reason.duration)",
            "100 gone(PopsimCore.PopupID(index: 0))",
            "100 enqueued(PopsimCore.PopupID(index: 2))",
            "100 shown(PopsimCore.PopupID(index: 2))",
            "100 enqueued(PopsimCore.PopupID(index: 1))",
            "100 shown(PopsimCore.PopupID(index: 1))",
            "100 finished",
        ])
        #expect(TimelineText.render(result.timeline) == """
              0  enqueue  a
              0  show     a
            100  shown    a
            100  hide     a  duration
            100  enqueue  c
            100  show     c
            100  enqueue  b
            100  warning  b  overlap
            100  show     b

            """)
    }

    @Test func timersAtOneInstantFireInTheOrderTheyWereSet() throws {
        let text = """
            {"popsim": 1, "popups": {"a": {}, "b": {}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 0, "suspend": true}, {"at": 0, "enqueue": "b"}]}
            """
        let (result, _) = try runEngine(EagerStrategy.self, text)
        // The strategy's own 0-ms timer (set at `suspend`) fires before the next script event.
        #expect(TimelineText.render(result.timeline) == """
            0  enqueue  a
            0  show     a
            0  suspend  -
            0  drop     a  end
            0  enqueue  b
            0  warning  b  overlap
            0  show     b

            """)
    }

    /// docs/engine.md "Time and order": the completions and timers of an instant are one run-loop
    /// pass, each script event is a pass of its own (a list enqueue is one), and the idle pass
    /// follows every pass; an instant with only script events has no pass before the first.
    @Test func theIdlePassFollowsEveryRunLoopPass() throws {
        let text = """
            {"popsim": 1, "state": {"n": 1}, "popups": {"a": {"showMs": 100}, "b": {}, "c": {}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": ["b", "c"]}, {"at": 100, "set": {"n": 1}}]}
            """
        let scenario = try loadScenario(text).get()
        var engine = Engine<EagerStrategy>(scenario: scenario, options: .defaults(of: EagerStrategy.options), limits: RunLimits())
        engine.strategy.recordsIdle = true
        _ = try engine.run()
        #expect(engine.strategy.told.map { $0.replacingOccurrences(of: "PopsimCore.PopupID(index: ", with: "#") } == [
            "0 enqueued(#0))", "0 idle",
            "100 shown(#0))", "100 idle",
            "100 enqueued(#1))", "100 enqueued(#2))", "100 shown(#1))", "100 shown(#2))", "100 idle",
            "100 stateChanged", "100 idle",
            "100 finished",
        ])
    }

    @Test func idlePassRepeatsWhileTheStrategyChangesSomething() throws {
        let scenario = try loadScenario(#"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": 7, "enqueue": "a"}]}"#).get()
        var engine = Engine<EagerStrategy>(scenario: scenario, options: .defaults(of: EagerStrategy.options), limits: RunLimits())
        engine.strategy.idleDecisions = 3
        let result = try engine.run()
        #expect(result.timeline.entries.filter { $0.reason == .stalled }.map(\.t) == [7, 7, 7])
    }

    @Test func eventsAtExactlyUntilRunAndLaterOnesDoNot() throws {
        let text = """
            {"popsim": 1, "until": 100, "popups": {"a": {}, "b": {}, "c": {}},
             "events": [{"at": 100, "enqueue": "a"}, {"at": 101, "enqueue": "b"}, {"at": 100, "enqueue": "c"}]}
            """
        let (result, _) = try runEngine(EagerStrategy.self, text)
        #expect(result.timeline.entries.filter { $0.event == .enqueue }.map { result.timeline.subjectName($0) } == ["a", "c"])
        #expect(result.end == 100)
    }

    @Test func anEventThatDoesNothingChangesNothing() throws {
        let base = """
            {"popsim": 1, "strategy": "jc-lifo", "state": {"n": 1},
             "popups": {"a": {"respond": {"after": 500}}, "b": {"respond": {"after": 500}}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": "b"}%@]}
            """
        let plain = try timeline(base.replacingOccurrences(of: "%@", with: ""))
        for extra in [#", {"at": 400, "set": {"n": 2}}"#, #", {"at": 400, "trigger": true}"#, #", {"at": 0, "trigger": true}"#] {
            #expect(try timeline(base.replacingOccurrences(of: "%@", with: extra)) == plain)
        }
    }

    @Test func aStrategyThatBreaksTheRulesStopsTheRunWithCode70() throws {
        let text = #"{"popsim": 1, "popups": {"%@": {}, "other": {}}, "events": [{"at": 5, "enqueue": "%@"}]}"#
        let cases: [(String, String)] = [
            ("showNever", "popsim: internal error: strategy broken at 5 ms: showed 'other', which was never enqueued"),
            ("hideHidden", "popsim: internal error: strategy broken at 5 ms: hid 'hideHidden' (preempted), which is not on screen"),
            ("twice", "popsim: internal error: strategy broken at 5 ms: showed 'twice', which is already on screen"),
        ]
        for (name, message) in cases {
            #expect {
                _ = try runEngine(BrokenStrategy.self, text.replacingOccurrences(of: "%@", with: name))
            } throws: { error in
                guard let error = error as? RunError else { return false }
                return ErrorReport.lines(.run(error)) == [message] && ErrorReport.code(.run(error)) == .internalError
            }
        }
    }

    @Test func aPopupThatReEnqueuesItselfForeverIsStopped() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"loop": {"respond": {"after": 0}, "then": {"close": [{"enqueue": "loop"}]}}},
             "events": [{"at": 3, "enqueue": "loop"}]}
            """
        #expect {
            _ = try run(text)
        } throws: { error in
            guard let error = error as? PopsimError else { return false }
            return ErrorReport.code(error) == .badInput && ErrorReport.lines(error) ==
                ["test.json: the run did not settle: more than 100000 steps at one instant (at 3 ms); a popup may re-enqueue itself forever"]
        }
    }

    @Test func durationHidesAndAResponseToAHiddenPopupIsAWarning() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "popups": {"toast": {"duration": 1000}},
             "events": [{"at": 0, "enqueue": "toast"}, {"at": 100, "dismiss": "toast"}, {"at": 3000, "dismiss": "toast"}]}
            """
        #expect(try timeline(text) == """
               0  enqueue  toast
               0  show     toast
             100  warning  toast  not-shown
             400  shown    toast
            1400  hide     toast  duration
            1600  gone     toast
            3000  warning  toast  not-shown

            """)
    }

    @Test func hidingCancelsThePopupsOwnTimers() throws {
        // Under LIFO, b pushes a off screen before a's response is due; a's timer restarts when it is back.
        let text = """
            {"popsim": 1, "strategy": "jc-lifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"a": {"respond": {"after": 100}}, "b": {"respond": {"after": 1000}}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 50, "enqueue": "b"}]}
            """
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
              50  enqueue  b
              50  hide     a  temporary
              50  show     b
            1050  hide     b  user
            1060  show     a
            1160  hide     a  user

            """)
    }

    @Test func navigationChangesScreenWhenTheTransitionCompletes() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "options": {"navMs": 300}, "state": {"screen": "Home"},
             "popups": {"a": {}},
             "events": [{"at": 0, "push": "Blue", "then": [{"enqueue": "a"}]}, {"at": 1000, "replace": "Red"},
                        {"at": 2000, "popTo": "Green"}, {"at": 2000, "popToRoot": true}]}
            """
        #expect(try timeline(text) == """
             300  nav      Blue
             300  enqueue  a
             300  show     a
             700  shown    a
            1300  nav      Red
            2000  warning  Green  not-on-stack
            2300  nav      Home

            """)
    }

    @Test func popToReturnsToTheLastMatchingScreenAndPopAtTheRootDoesNothing() throws {
        let text = """
            {"popsim": 1, "strategy": "jc-fifo", "options": {"navMs": 100}, "state": {"screen": "Home"},
             "events": [{"at": 0, "pop": true}, {"at": 10, "push": "A"}, {"at": 20, "push": "B"}, {"at": 30, "push": "A"},
                        {"at": 40, "push": "C"}, {"at": 200, "popTo": "A"}, {"at": 400, "popTo": "Home"}, {"at": 600, "popTo": "Home"}]}
            """
        #expect(try timeline(text) == """
            110  nav      A
            120  nav      B
            130  nav      A
            140  nav      C
            300  nav      A
            500  nav      Home

            """)
    }
}
