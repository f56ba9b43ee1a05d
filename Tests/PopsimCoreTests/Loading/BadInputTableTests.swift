import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// One bad input: the file's bytes and the exact stderr it must give (`F` stands for the path).
struct BadInput: CustomTestStringConvertible, Sendable {
    var id: String
    var bytes: [UInt8]
    var stderr: String
    var testDescription: String { id }

    init(_ id: String, _ text: String, _ stderr: String) {
        self.id = id
        self.bytes = Array(text.utf8)
        self.stderr = stderr
    }

    init(_ id: String, bytes: [UInt8], _ stderr: String) {
        self.id = id
        self.bytes = bytes
        self.stderr = stderr
    }
}

let badInputs: [BadInput] = [
    BadInput("empty file", "", "F:1:1: expected a JSON value, got an empty file"),
    BadInput("binary garbage", bytes: [0, 1, 0xFF, 0xFE], "F:1:1: expected a value, got byte 0x00"),
    BadInput("trailing comma", #"{"popsim": 1, "events": [],}"#, "F:1:28: expected a string key, got '}'"),
    BadInput("unclosed array", #"{"popsim": 1, "events": ["#, "F:1:26: expected a value, got the end of the file"),
    BadInput("top level is an array", "[1, 2]", "F:1:1: expected an object, got an array"),
    BadInput("missing version", #"{"events": []}"#, "F:1:1: missing key 'popsim' (the format version, 1)"),
    BadInput("newer version", #"{"popsim": 2}"#, "F:1:12: popsim: unsupported format version 2; the highest supported is 1"),
    BadInput("version as a string", #"{"popsim": "1"}"#, #"F:1:12: popsim: expected the format version 1, got "1""#),
    BadInput("unknown top-level key", #"{"popsim": 1, "evnets": []}"#,
             #"F:1:15: evnets: unknown key "evnets"; did you mean 'events'?"#),
    BadInput("duplicate key", #"{"popsim": 1, "until": 5, "until": 6}"#, #"F:1:27: until: duplicate key "until""#),
    BadInput("time as a word",
             #"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}, {"at": 1, "enqueue": "a"}, {"at": 2, "enqueue": "a"}, {"at": "soon", "enqueue": "a"}]}"#,
             #"F:1:135: events[3].at: expected an integer >= 0, got "soon""#),
    BadInput("negative time", #"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": -5, "enqueue": "a"}]}"#,
             "F:1:54: events[0].at: expected an integer >= 0, got -5"),
    BadInput("fractional time", #"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": 1.5, "enqueue": "a"}]}"#,
             "F:1:54: events[0].at: expected an integer >= 0, got 1.5"),
    BadInput("integer beyond 64 bits", #"{"popsim": 1, "until": 18446744073709551616}"#,
             "F:1:24: until: expected an integer >= 0 (at most 9223372036854775807), got 18446744073709551616"),
    BadInput("1e309", #"{"popsim": 1, "until": 1e309}"#, "F:1:24: until: expected an integer >= 0, got 1e309"),
    BadInput("unknown popup id", #"{"popsim": 1, "popups": {"upgrade": {}}, "events": [{"at": 0, "enqueue": "upgrad"}]}"#,
             #"F:1:74: events[0].enqueue: unknown popup "upgrad"; did you mean 'upgrade'?"#),
    BadInput("switch word", #"{"popsim": 1, "popups": {"upgrade": {"switch": "later"}}}"#,
             #"F:1:48: popups.upgrade.switch: expected one of await, discard, latent; got "later"; did you mean 'latent'?"#),
    BadInput("unknown popup field", #"{"popsim": 1, "popups": {"a": {"priorty": 3}}}"#,
             #"F:1:32: popups.a.priorty: unknown key "priorty"; did you mean 'priority'?"#),
    BadInput("unknown strategy", #"{"popsim": 1, "strategy": "jc-fif"}"#,
             #"F:1:27: strategy: unknown strategy "jc-fif"; did you mean 'jc-fifo'?"#),
    BadInput("condition names unknown state",
             #"{"popsim": 1, "state": {"screen": "splash"}, "popups": {"a": {"when": "scren == 'home'"}}}"#,
             #"F:1:72: popups.a.when: unknown state name "scren"; did you mean 'screen'?"#),
    BadInput("condition compares a string with a number",
             #"{"popsim": 1, "state": {"screen": "splash"}, "popups": {"a": {"when": "screen > 3"}}}"#,
             "F:1:79: popups.a.when: cannot compare a string with an integer using '>'"),
    BadInput("condition missing a parenthesis", #"{"popsim": 1, "state": {"n": 1}, "popups": {"a": {"when": "n == (1"}}}"#,
             "F:1:67: popups.a.when: expected ')', got the end of the condition"),
    BadInput("condition is not boolean", #"{"popsim": 1, "state": {"n": 1}, "popups": {"a": {"when": "n"}}}"#,
             "F:1:60: popups.a.when: expected a condition that is true or false, got an integer"),
    BadInput("condition uses =", #"{"popsim": 1, "state": {"n": 1}, "popups": {"a": {"when": "n = 1"}}}"#,
             "F:1:62: popups.a.when: expected an operator or the end of the condition, got '=' (use '==' to compare)"),
    BadInput("two actions in one event", #"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a", "dismiss": "a"}]}"#,
             "F:1:47: events[0]: expected exactly one action, got 'enqueue' and 'dismiss'"),
    BadInput("no action", #"{"popsim": 1, "events": [{"at": 0}]}"#,
             "F:1:26: events[0]: expected exactly one action (enqueue, dismiss, press, set, suspend, resume, trigger, remove, clear, clearQueue, clearScreen, clearUpTo, push, pop, popToRoot, popTo, replace, pauseTimers, resumeTimers), got none"),
    BadInput("clearUpTo not a priority", #"{"popsim": 1, "events": [{"at": 0, "clearUpTo": "hgh"}]}"#,
             #"F:1:49: events[0].clearUpTo: expected one of an integer, veryLow, low, normal, high, veryHigh; got "hgh"; did you mean 'high'?"#),
    BadInput("set changes a type", #"{"popsim": 1, "state": {"loggedIn": false}, "events": [{"at": 0, "set": {"loggedIn": 1}}]}"#,
             "F:1:86: events[0].set.loggedIn: expected a boolean (the type of state.loggedIn), got 1"),
    BadInput("set names unknown state", #"{"popsim": 1, "state": {"loggedIn": false}, "events": [{"at": 0, "set": {"logedIn": true}}]}"#,
             #"F:1:74: events[0].set.logedIn: unknown state name "logedIn" (declare it in "state"); did you mean 'loggedIn'?"#),
    BadInput("option the strategy lacks", #"{"popsim": 1, "strategy": "jc-fifo", "options": {"order": "fifo"}}"#,
             #"F:1:50: options.order: jc-fifo has no option "order" (its options: showMs, hideMs, navMs)"#),
    BadInput("negative animation time", #"{"popsim": 1, "strategy": "jc-lifo", "options": {"showMs": -1}}"#,
             "F:1:60: options.showMs: expected an integer >= 0, got -1"),
    BadInput("flag action set to false", #"{"popsim": 1, "events": [{"at": 0, "suspend": false}]}"#,
             "F:1:47: events[0].suspend: expected true, got false"),
    BadInput("press without a button", #"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": 0, "press": {"popup": "a"}}]}"#,
             "F:1:66: events[0].press: missing key 'button' (the button pressed)"),
    BadInput("then action with a time", #"{"popsim": 1, "popups": {"a": {"then": {"ok": [{"at": 5, "enqueue": "a"}]}}}}"#,
             "F:1:55: popups.a.then.ok[0].at: 'at' is not allowed here: a then action runs at the moment that sets it off"),
    BadInput("popup id with a space", #"{"popsim": 1, "popups": {"a b": {}}}"#,
             #"F:1:26: popups["a b"]: "a b" is not a valid name: use letters, digits, '_', '-', '.' or ':', starting with a letter, digit or '_'"#),
    BadInput("respond without after", #"{"popsim": 1, "popups": {"a": {"respond": {"button": "ok"}}}}"#,
             "F:1:43: popups.a.respond: missing key 'after' (ms after the popup is fully shown)"),
    BadInput("unknown priority name", #"{"popsim": 1, "popups": {"a": {"priority": "hihg"}}}"#,
             #"F:1:44: popups.a.priority: expected one of an integer, veryLow, low, normal, high, veryHigh; got "hihg"; did you mean 'high'?"#),
    BadInput("invalid UTF-8", bytes: Array(#"{"popsim": 1, "name": "caf"#.utf8) + [0xC3, 0x22, 0x7D], "F:1:27: invalid UTF-8 (byte 0xC3)"),
    BadInput("raw tab in a string", "{\"popsim\": 1, \"name\": \"a\tb\"}",
             "F:1:25: expected a closing '\"' or a printable character in a string, got byte 0x09"),
    BadInput("fractional state value", #"{"popsim": 1, "state": {"ratio": 1.5}}"#,
             "F:1:34: state.ratio: expected a string, an integer or a boolean, got 1.5"),
    BadInput("then on a non-navigation event", #"{"popsim": 1, "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a", "then": []}]}"#,
             "F:1:81: events[0].then: 'then' is not allowed here: it follows a navigation event; a button's actions go in the popup's then"),
    BadInput("every error of a file, in file order",
             #"{"popsim": 1, "popups": {"a": {"duration": "long", "level": "top"}}, "events": [{"at": -1, "dismiss": "b"}]}"#,
             """
             F:1:44: popups.a.duration: expected one of an integer >= 0, forever; got "long"
             F:1:61: popups.a.level: expected one of normal, high; got "top"
             F:1:88: events[0].at: expected an integer >= 0, got -1
             F:1:103: events[0].dismiss: unknown popup "b"
             """),
    BadInput("10,000-deep JSON", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
             "F:1:257: nesting deeper than 256 levels"),
    BadInput("10,000-deep condition",
             #"{"popsim": 1, "state": {"n": 1}, "popups": {"a": {"when": ""# + String(repeating: "(", count: 10_000)
                 + "n == 1" + String(repeating: ")", count: 10_000) + #""}}}"#,
             "F:1:92: popups.a.when: nesting deeper than 32 levels"),
    BadInput("10,000 negations", #"{"popsim": 1, "state": {"b": true}, "popups": {"a": {"when": ""#
                 + String(repeating: "!", count: 10_000) + #"b"}}}"#,
             "F:1:95: popups.a.when: nesting deeper than 32 levels"),
    BadInput("a then key one edit from the button pressed",
             #"{"popsim": 1, "popups": {"rate": {"respond": {"after": 9, "button": "ok"}, "then": {"okay": []}}}}"#,
             #"F:1:85: popups.rate.then.okay: no button "okay" of 'rate' is ever pressed (pressed: close, ok); did you mean 'ok'?"#),
    BadInput("expect is not an array",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": "no overlap"}"#,
             #"F:1:83: expect: expected an array of properties, such as ["no overlap"], got "no overlap""#),
    BadInput("an empty property",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": [""]}"#,
             #"F:1:84: expect[0]: expected a non-empty string, got """#),
    BadInput("a typo in a keyword",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["no overlpa"]}"#,
             #"F:1:88: expect[0]: expected one of overlap, lost, stalled, untracked, pending after 'no', got "overlpa"; did you mean 'overlap'?"#),
    BadInput("an unknown kind",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["showed upgrade"]}"#,
             #"F:1:85: expect[0]: unknown property "showed"; did you mean 'shown'?; a property starts with no, shown, never, wait, visible, shows or is 'A before B'"#),
    BadInput("an unknown popup, with its hint",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["upgrade before gide"]}"#,
             #"F:1:100: expect[0]: unknown popup "gide"; did you mean 'guide'?"#),
    BadInput("a negative time",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["wait upgrade <= -3"]}"#,
             #"F:1:101: expect[0]: expected an integer >= 0 after "<=", got "-3""#),
    BadInput("a window of 0 ms",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["shows <= 3 per 0"]}"#,
             #"F:1:100: expect[0]: expected an integer > 0 after "per", got "0""#),
    BadInput("a missing operand",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["visible <="]}"#,
             #"F:1:95: expect[0]: expected an integer >= 0 after "<=""#),
    BadInput("words after the property",
             #"{"popsim": 1, "strategy": "fg", "popups": {"upgrade": {}, "guide": {}}, "expect": ["no lost at all"]}"#,
             #"F:1:93: expect[0]: unexpected "at" after the property"#),
    BadInput("an inverted window",
             #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": [5, 3], "enqueue": "a"}]}"#,
             #"F:1:72: events[0].at: expected a window [earliest, latest] with earliest <= latest, got [5, 3]"#),
    BadInput("order on a single popup",
             #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a", "order": "any"}]}"#,
             #"F:1:100: events[0].order: 'order' is not allowed here: "order": "any" goes on an enqueue of two popups or more"#),
    BadInput("maybe on a then action, not a script event",
             #"{"popsim": 1, "strategy": "fg", "popups": {"a": {"then": {"close": [{"enqueue": "a", "maybe": true}]}}}, "events": []}"#,
             #"F:1:95: popups.a.then.close[0].maybe: 'maybe' is not allowed here: only a script event's arrival can be uncertain"#),
    BadInput("no strategy anywhere", #"{"popsim": 1}"#,
             #"F: no strategy: set "strategy" in the file or pass --strategy"#),
]

@Suite("bad input: exact message, exit code 2")
struct BadInputTableTests {
    @Test(arguments: badInputs)
    func reportsExactly(_ input: BadInput) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.json").path
        try Data(input.bytes).write(to: URL(fileURLWithPath: path))
        let strategy = input.id == "no strategy anywhere" ? [] : ["--strategy", "jc-fifo"]
        var console = Console()
        let code = Popsim.main(["run", path] + strategy, console: &console)
        #expect(code == .badInput)
        let expected = input.stderr.split(separator: "\n").map { line in
            line.hasPrefix("F:") ? path + line.dropFirst() : String(line)
        }
        #expect(console.stderr == expected.joined(separator: "\n") + "\n")
        #expect(console.stdout == "")
    }

    /// An option key starting with `//` is a comment (`fit --output` writes one above each
    /// option); any other unknown key is still an error.
    @Test func optionKeysStartingWithSlashesAreComments() throws {
        let text = #"{"popsim": 1, "strategy": "notistack", "options": {"// slots": "how many at once", "slots": 2}}"#
        #expect(loadErrors(text) == [])
        let scenario = try loadScenario(text).get()
        #expect(scenario.options.map(\.name) == ["slots"])
        #expect(loadErrors(#"{"popsim": 1, "strategy": "notistack", "options": {"/ slots": 2}}"#).count == 1)
    }

    @Test func thereAreAtLeast25DistinctCases() {
        #expect(Set(badInputs.map(\.id)).count == badInputs.count)
        #expect(badInputs.count >= 25)
    }

    @Test func aDirectoryAndAMissingFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var console = Console()
        #expect(Popsim.main(["run", dir.path], console: &console) == .badInput)
        #expect(console.stderr == "\(dir.path): cannot read: it is a directory\n")
        console = Console()
        let missing = dir.appendingPathComponent("missing.json").path
        #expect(Popsim.main(["run", missing], console: &console) == .badInput)
        #expect(console.stderr == "\(missing): cannot read: No such file or directory\n")
    }

    @Test func atMostAThousandErrorsThenACount() {
        let events = Array(repeating: #"{"at": -1, "enqueue": "b"}"#, count: 600).joined(separator: ",")
        let lines = loadErrors(#"{"popsim": 1, "popups": {"a": {}}, "events": ["# + events + "]}")
        #expect(lines.count == 1_001)
        #expect(lines.last == "test.json: 200 more errors not shown (the first 1000 are above)")
        #expect(lines.first == #"test.json:1:54: events[0].at: expected an integer >= 0, got -1"#)
    }

    @Test func aHugeUnknownWordGetsNoSuggestionAndStaysFast() {
        let word = String(repeating: "x", count: 100_000)
        #expect(Suggestion.closest(word, among: ["popsim", "events"]) == nil)
        #expect(Suggestion.closest("evnets", among: ["popsim", "events"]) == "events")
    }
}
