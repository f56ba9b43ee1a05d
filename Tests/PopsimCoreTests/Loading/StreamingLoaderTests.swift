import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// The streaming fast path must give exactly what the tree path gives: same events, same errors.
@Suite struct StreamingLoaderTests {
    static let head = #"{"popsim": 1, "strategy": "fg", "state": {"screen": "home", "n": 1}, "popups": {"a": {}, "b2": {}, "é": {}}, "events": ["#

    /// Both paths on the same bytes; the fast path must apply.
    func assertSame(_ text: String, _ comment: Comment? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let bytes = Array(text.utf8)
        guard let fast = ScenarioLoader.loadStreaming(bytes, file: "s.json", catalog: StrategyRegistry.catalog) else {
            Issue.record("the fast path did not apply", sourceLocation: sourceLocation)
            return
        }
        let tree = ScenarioLoader.loadTree(bytes, file: "s.json", catalog: StrategyRegistry.catalog)
        #expect(describe(fast) == describe(tree), comment, sourceLocation: sourceLocation)
        // The second half read ahead (ScenarioLoader+ReadAhead.swift), before the first half and
        // beside it: the same again.
        for inline in [true, false] {
            let ahead = ScenarioLoader.loadStreaming(bytes, file: "s.json", catalog: StrategyRegistry.catalog,
                                                     readAhead: .init(from: 0, inline: inline))
            #expect(ahead.map(describe) == describe(tree), comment, sourceLocation: sourceLocation)
        }
    }

    /// How many events the read-ahead kept, loading `text` with it inline.
    func keptAhead(_ text: String) -> Int {
        let kept = Box()
        _ = ScenarioLoader.loadStreaming(Array(text.utf8), file: "s.json", catalog: StrategyRegistry.catalog,
                                         readAhead: .init(from: 0, inline: true, kept: { kept.value += $0 }))
        return kept.value
    }

    final class Box: @unchecked Sendable { var value = 0 }

    @Test func theSecondHalfIsReadAheadAndKept() {
        let text = ScenarioGenerator(events: 400, seed: 3, popups: 12).generate()
        assertSame(text)
        // The guess lands on an element past the middle of the array: about half the events.
        let kept = keptAhead(text)
        #expect(kept > 150 && kept < 250, "kept \(kept)")
    }

    @Test func aGuessInsideAStringIsDropped() {
        // The middle of the array falls inside a screen name that looks like an element boundary.
        let name = String(repeating: "x", count: 300) + #", {\"at\": 1, \"enqueue\": \"a\"}"# + String(repeating: "y", count: 30)
        let text = Self.head + #"{"at": 1, "enqueue": "a"}, {"at": 2, "push": ""# + name + #""}, {"at": 3, "enqueue": "b2"}]}"#
        assertSame(text)
        #expect(keptAhead(text) == 0)
    }

    @Test func theReadAheadStopsWhereTheTreePathIsNeededAndTheFirstReaderGoesOn() {
        // Past the middle: a slow-path event (a `then`), an unknown popup (an error), a bad separator.
        let plain = Array(repeating: #"{"at": 1, "enqueue": "a"}"#, count: 20).joined(separator: ",\n ")
        for tail in [#"{"at": 5, "push": "Blue", "then": [{"enqueue": "a"}]}, {"at": 6, "enqueue": "b2"}"#,
                     #"{"at": 5, "enqueue": "nope"}, {"at": 6, "enqueue": "b2"}"#,
                     #"{"at": 5, "enqueue": "a"} {"at": 6, "enqueue": "b2"}"#,
                     #"{"at": 5, "enqueue": "a"}, {"at": 6, "enqueue": "b2"}"#] {
            let text = Self.head + plain + ",\n " + plain + ",\n " + tail + "]}"
            assertSame(text, Comment(rawValue: tail))
        }
    }

    func describe(_ result: Result<Scenario, LoadErrors>) -> [String] {
        switch result {
        case .failure(let errors): return errors.errors.map(\.line)
        case .success(let s):
            return s.events.map { "\($0.at) \($0.index) \($0.location) \(describe($0.action))" } + [s.name, "\(s.popups.count)"]
                + s.popups.map { describe($0, s.fieldLocations) }
        }
    }

    func describe(_ p: Popup, _ locations: FieldLocations) -> String {
        let values: [Any?] = [p.name, p.priority, p.whenText, p.when.map { "\($0)" }, p.untriggered, p.switchBehavior, p.duration,
                              p.respond, p.then.map { "\($0.button) \($0.actions.map(describe)) \(String(describing: $0.location))" },
                              p.key, p.level, p.showMs, p.hideMs, p.arrival, p.dropQueued, p.dedupeKey, p.delayMs, p.minMs,
                              p.ttlMs, p.maxShows, p.fieldsSet, locations.of(p).map { "\($0.field) \($0.location)" }]
        return values.map { String(describing: $0) }.joined(separator: " ")
    }

    func describe(_ action: Action) -> String {
        switch action {
        case .enqueue(let p): return "enqueue \(p.index)"
        case .enqueueMany(let ps): return "enqueue \(ps.map(\.index))"
        case .dismiss(let p): return "dismiss \(p.index)"
        case .press(let p, let b): return "press \(p.index) \(b)"
        case .set(let changes): return "set " + changes.map { "\($0.0.index)=\($0.1)" }.joined(separator: ",")
        case .remove(let p): return "remove \(p.index)"
        case .navigate(let n, let then): return "nav \(n) then \(then.map(describe))"
        default: return action.keyword
        }
    }

    @Test(arguments: [
        #"{"at": 1, "enqueue": "a"}"#, #"{"enqueue": "b2", "at": 7}"#, #"{ "at" : 0 , "dismiss" : "a" }"#,
        #"{"at": 01, "enqueue": "a"}"#, #"{"at": -1, "enqueue": "a"}"#, #"{"at": 1.0, "enqueue": "a"}"#, #"{"at": 1e3, "enqueue": "a"}"#,
        #"{"at": 123456789012345678901, "enqueue": "a"}"#, #"{"at": 1234567890123456789, "enqueue": "a"}"#,
        #"{"at": 1, "enqueue": "\u0061"}"#, #"{"at": 1, "enqueue": "é"}"#, #"{"at": 1, "enqueue": "nope"}"#,
        #"{"at": 1, "enqueue": ["a", "b2"]}"#, #"{"at": 1, "enqueue": []}"#, #"{"at": 1, "push": "Blue", "then": [{"enqueue": "a"}]}"#,
        #"{"at": 1, "push": ""}"#, #"{"at": 1, "pop": true}"#, #"{"at": 1, "pop": false}"#, #"{"at": 1, "popToRoot": true}"#,
        #"{"at": 1, "popTo": "x"}"#, #"{"at": 1, "replace": "y"}"#, #"{"at": 1, "trigger": true}"#, #"{"at": 1, "suspend": true}"#,
        #"{"at": 1, "resume": true}"#, #"{"at": 1, "clear": true}"#, #"{"at": 1, "remove": "b2"}"#, #"{"at": 1, "trigger": 1}"#,
        #"{"at": 1, "pauseTimers": true}"#, #"{"at": 1, "resumeTimers": "a"}"#, #"{"at": 1, "pauseTimers": false}"#,
        #"{"at": 1, "resumeTimers": "nope"}"#, #"{"at": 1, "clearQueue": true}"#, #"{"at": 1, "clearScreen": true}"#,
        #"{"at": 1, "clearUpTo": 50}"#, #"{"at": 1, "clearUpTo": "low"}"#, #"{"at": 1, "clearUpTo": "lo"}"#, #"{"at": 1, "clearUpTo": true}"#,
        #"{"at": 1, "at": 2, "enqueue": "a"}"#, #"{"at": 1, "enqueue": "a", "dismiss": "a"}"#, #"{"at": 1}"#, #"{"enqueue": "a"}"#,
        #"{"at": 1, "set": {"n": 2}}"#, #"{"at": 1, "set": {"n": "x"}}"#, #"{"at": 1, "press": {"popup": "a", "button": "ok"}}"#,
        #"{"at": 1, "enquue": "a"}"#, #"{"at": 1, "enqueue": ["a"]}"#, #"{"at": 1, "enqueue": ["a", "nope"]}"#,
        #"{"at": 1, "enqueue": ["a",]}"#, #"{"at": 1, "set": {"n": 2, "screen": "x"}}"#, #"{"at": 1, "set": {"n": 2, "n": 3}}"#,
        #"{"at": 1, "set": {"n": -2}}"#, #"{"at": 1, "set": {"n": true}}"#, #"{"at": 1, "set": {}}"#, #"{"at": 1, "set": {"m": 1}}"#,
        #"{"at": 1, "set": {"screen": false}}"#, #"{"at": 1, "press": {"button": "ok", "popup": "b2"}}"#,
        #"{"at": 1, "press": {"popup": "a"}}"#, #"{"at": 1, "press": {"popup": "a", "button": ""}}"#,
        #"{"at": 1, "press": {"popup": "a", "button": "ok", "x": 1}}"#, #"{"at": 1, "press": {"popup": "zz", "button": "ok"}}"#, #"[1]"#, #"3"#, #"{}"#, #"{"at": 9, "enqueue": "a"}, {"at": 2, "enqueue": "b2"}"#,
        "{\"at\": 1,\n \"enqueue\": \"a\"}", "{\"at\": 1, \"enqueue\": \"a\"}\r\n", #"{"at": 1, "enqueue": "a",}"#,
        #"{"at": 1, "enqueue": "a"} {"at": 2}"#, #"{"at": 1 "enqueue": "a"}"#, #"{"at": 1, "enqueue": "a""#,
    ])
    func oneEventShape(_ event: String) {
        assertSame(Self.head + event + "]}", Comment(rawValue: event))
        assertSame(Self.head + #"{"at": 0, "trigger": true}, "# + event + "], \"until\": 5}", Comment(rawValue: event))
    }

    static let popupHead = #"{"popsim": 1, "strategy": "fg", "state": {"screen": "home", "n": 1, "on": false}, "popups": {"a": {}, "b": "#

    /// Each popup shape read by the fast path (ScenarioLoader+FastPopups.swift) or sent to the
    /// tree path, valid or not: the same popups and the same errors as the tree path.
    @Test(arguments: [
        #"{}"#, #"{ }"#, #"{"priority": 5}"#, #"{"priority": "high"}"#, #"{"priority": "hihg"}"#, #"{"priority": -5}"#,
        #"{"priority": 5.0}"#, #"{"priority": 05}"#, #"{"priority": 123456789012345678901}"#, #"{"priority": true}"#,
        #"{"when": "n > 1 && screen == 'home'"}"#, #"{"when": "m > 1"}"#, #"{"when": ""}"#, #"{"when": "on"}"#, #"{"when": "n >"}"#,
        #"{"untriggered": "discard"}"#, #"{"untriggered": "dscard"}"#, #"{"switch": "latent"}"#, #"{"switch": 1}"#,
        #"{"level": "high"}"#, #"{"level": "low"}"#, #"{"arrival": "queue"}"#, #"{"arrival": "x"}"#,
        #"{"duration": 3000}"#, #"{"duration": "forever"}"#, #"{"duration": "never"}"#, #"{"duration": -1}"#, #"{"duration": 0}"#,
        #"{"respond": {"after": 10}}"#, #"{"respond": {"after": 10, "button": "ok"}}"#, #"{"respond": {"button": "ok", "after": 0}}"#,
        #"{"respond": {"button": "ok"}}"#, #"{"respond": {"after": 1, "button": ""}}"#, #"{"respond": {"after": 1, "x": 2}}"#,
        #"{"respond": {"after": 1, "after": 2}}"#, #"{"respond": {}}"#, #"{"respond": 5}"#,
        #"{"then": {"ok": [{"enqueue": "a"}]}}"#, #"{"key": ""}"#, #"{"key": "k1"}"#, #"{"key": "é"}"#, #"{"key": "a\nb"}"#,
        #"{"dedupeKey": ""}"#, #"{"dedupeKey": "d"}"#, #"{"dropQueued": true}"#, #"{"dropQueued": false}"#, #"{"dropQueued": 1}"#,
        #"{"showMs": 0}"#, #"{"hideMs": 200}"#, #"{"delayMs": 1}"#, #"{"minMs": 2}"#, #"{"ttlMs": 3}"#, #"{"ttlMs": -3}"#,
        #"{"maxShows": 1}"#, #"{"maxShows": 0}"#, #"{"priority": 1, "priority": 2}"#, #"{"priority": 1, "prority": 2}"#,
        #"{"key": "k", "priority": 3, "when": "n == 1", "respond": {"after": 5}, "maxShows": 2, "hideMs": 9}"#,
        "{\"priority\": 1,\n   \"key\": \"k\"\n}", #"{"priority": 1,}"#, #"{"priority": 1"#, #"{"priority" 1}"#, #"[]"#, #"3"#,
        // `then`, decoded once every name has its id (a popup declared further down, "c"):
        #"{"then": {"ok": [{"enqueue": "c"}]}}"#, #"{"then": {"ok": [{"enqueue": "zz"}]}}"#,
        #"{"then": {"ok": [{"enqueue": ["a", "c"]}], "close": []}, "key": "k"}"#, #"{"then": {"ok": [], "ok": []}}"#,
        #"{"then": {"ok": [{"at": 1, "enqueue": "a"}]}}"#, #"{"then": {"ok": [{"enqueue": "a", "order": 1}]}}"#,
        #"{"then": {"ok": [{"press": {"popup": "a", "button": "x"}}, {"set": {"n": 2}}, {"dismiss": "c"}]}}"#,
        #"{"then": {"ok": [{"set": {"n": 01}}]}}"#, #"{"then": {"ok": [{"set": {"n": true}}]}}"#,
        #"{"then": {"ok": [{"push": "Blue", "then": [{"enqueue": "a"}]}]}}"#, #"{"then": {"ok": {"enqueue": "a"}}}"#,
        #"{"then": {"ok": [{"enqueue": "a"},]}}"#, #"{"then": {"é": [{"enqueue": "a"}]}}"#, #"{"then": {"ok": [{"enqueue": "\u0061"}]}}"#,
        #"{"then": {"ok": [{"enqueue": "a"}]}, "then": {}}"#, #"{"then": {"ok":[{"enqueue":"a"} ,{"dismiss":"a"}] } }"#,
        #"{"then": 3}"#, #"{"then": {"ok": [tru]}}"#, #"{"then": {"ok": [truex]}}"#, #"{"then": {"ok": [{"enqueue": "a"}]}"#,
        "{\"then\": {\n  \"ok\": [\n    {\"enqueue\": \"a\"}\n  ],\n  \"no\": [{\"enqueu\": \"a\"}]\n}}",
        #"{"priority": 2, "then": {"ok": [{"enqueue": "a"}]}, "respond": {"after": 5, "button": "ok"}}"#,
        #"{"then": {"ok": [{"enqueue": "bx"}]}}"#, #"{"then": {"ok": [{"enqueue": "cc"}]}}"#,
    ])
    func onePopupShape(_ popup: String) {
        assertSame(Self.popupHead + popup + #", "c": {"key": "z"}}, "events": [{"at": 1, "enqueue": "b"}]}"#, Comment(rawValue: popup))
    }

    @Test func generatedScenariosLoadTheSame() {
        for seed in 1...5 {
            let text = ScenarioGenerator(events: 400, seed: UInt64(seed), popups: 12).generate()
            assertSame(text)
        }
    }

    @Test func mutatedEventsLoadTheSame() {
        let text = ScenarioGenerator(events: 60, seed: 9, popups: 6).generate()
        let base = Array(text.utf8)
        let eventsStart = (text.range(of: "\"events\": [")?.upperBound).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) } ?? 0
        var random = SplitMix64(seed: 42)
        var compared = 0
        let tokens = ["0", "-1", "1.5", "\"a\"", "\"p1\"", "true", "[", "]", "{", "}", ",", ":", "\"at\"", "\"enqueue\"", "\\", " ", "\n", "\"\\u00e9\""]
        for _ in 0..<600 {
            var bytes = base
            for _ in 0...random.below(2) {
                let at = eventsStart + random.below(bytes.count - eventsStart - 4)
                switch random.below(3) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next() % 128)
                case 1: bytes.remove(at: at)
                default: bytes.insert(contentsOf: Array(tokens[random.below(tokens.count)].utf8), at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard ScenarioLoader.loadStreaming(bytes, file: "s.json", catalog: StrategyRegistry.catalog) != nil else { continue }
            assertSame(text)
            compared += 1
        }
        #expect(compared > 400)
    }

    /// Random damage inside `popups`: whatever the fast path accepts, it reads as the tree does.
    @Test func mutatedPopupsLoadTheSame() {
        let text = ScenarioGenerator(events: 10, seed: 11, popups: 40).generate()
        let base = Array(text.utf8)
        let utf8 = text.utf8
        guard let from = text.range(of: "\"popups\": {")?.upperBound, let to = text.range(of: "\"events\"")?.lowerBound else {
            Issue.record("no popups in the generated scenario")
            return
        }
        let start = utf8.distance(from: utf8.startIndex, to: from), end = utf8.distance(from: utf8.startIndex, to: to)
        var random = SplitMix64(seed: 7)
        var compared = 0
        let tokens = ["0", "-1", "1.5", "\"high\"", "\"forever\"", "true", "{", "}", ",", ":", "\"key\"", "\"then\"", "\\", " ",
                      "\n", "\"when\": \"level > 2\"", "\"after\": 5", "\"\""]
        for _ in 0..<600 {
            var bytes = base
            for _ in 0...random.below(2) {
                let at = start + random.below(end - start - 4)
                switch random.below(3) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next() % 128)
                case 1: bytes.remove(at: at)
                default: bytes.insert(contentsOf: Array(tokens[random.below(tokens.count)].utf8), at: at)
                }
            }
            guard ScenarioLoader.loadStreaming(bytes, file: "s.json", catalog: StrategyRegistry.catalog) != nil else { continue }
            assertSame(String(decoding: bytes, as: UTF8.self))
            compared += 1
        }
        #expect(compared > 400)
    }

    /// Popup names are looked up by their bytes now, not in a dictionary of Strings: a name that
    /// Swift compares equal (the Kelvin sign is "K") still names the declared popup, and two
    /// such names are still one name.
    @Test func namesEqualAsUnicodeStayEqual() throws {
        let text = #"{"popsim": 1, "strategy": "fg", "state": {"n": 1}, "popups": {"K": {}}, "events": [{"at": 1, "enqueue": "\#u{212A}"}], "expect": ["shown \#u{212A}"]}"#
        let loads: [([UInt8], String, StrategyCatalog) -> Result<Scenario, LoadErrors>] = [
            { ScenarioLoader.loadTree($0, file: $1, catalog: $2) },
            { ScenarioLoader.loadStreaming($0, file: $1, catalog: $2) ?? .failure(LoadErrors([])) },
        ]
        for load in loads {
            let scenario = try load(Array(text.utf8), "s.json", StrategyRegistry.catalog).get()
            #expect(describe(scenario.events[0].action) == "enqueue 0")
            #expect(scenario.expectations.count == 1)
        }
        let twice = #"{"popsim": 1, "strategy": "fg", "popups": {"K": {}, "\#u{212A}": {}}, "events": []}"#
        let errors = describe(ScenarioLoader.loadTree(Array(twice.utf8), file: "s.json", catalog: StrategyRegistry.catalog))
        #expect(errors == ["s.json:1:53: popups[\"\u{212A}\"]: duplicate key \"\u{212A}\""])
    }

    /// Every popup is named before any body is read, so a message in a body (or in an event
    /// after) may suggest a popup declared further down — the same on both paths.
    @Test func hintsNamePopupsDeclaredFurtherDown() {
        let text = #"{"popsim": 1, "strategy": "fg", "state": {"n": 1}, "popups": {"a": {"then": {"ok": [{"enqueue": "bannr"}]}}, "banner": {}}, "events": [{"at": 1, "enqueue": "baner"}]}"#
        let expected = [#"s.json:1:97: popups.a.then.ok[0].enqueue: unknown popup "bannr"; did you mean 'banner'?"#,
                        #"s.json:1:157: events[0].enqueue: unknown popup "baner"; did you mean 'banner'?"#]
        #expect(describe(ScenarioLoader.loadTree(Array(text.utf8), file: "s.json", catalog: StrategyRegistry.catalog)) == expected)
        assertSame(text)
    }
}
