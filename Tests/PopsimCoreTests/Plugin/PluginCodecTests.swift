import Testing
@testable import PopsimCore
import PopsimReports
import PopsimTestSupport

/// The plug-in protocol's lines, as docs/plugin-protocol.md shows them, and its readers on
/// hostile bytes: every reply and handshake either parses or is a `PluginFailure`, never a crash.
@Suite("plug-in protocol: lines and readers")
struct PluginCodecTests {
    static let text = """
    {"popsim": 1, "name": "demo", "state": {"screen": "home"},
     "popups": {"A": {"duration": 1000, "priority": "high", "key": "k", "when": "screen == 'home'"}, "B.2": {"level": "high"}},
     "events": [{"at": 0, "enqueue": "A"}]}
    """

    static func world() throws -> World {
        let scenario = try loadScenario(text).get()
        return World(scenario: scenario, options: .defaults(of: PolicyRules.options))
    }

    @Test func startAndHappeningsAreTheDocumentedLines() throws {
        let world = try Self.world()
        let codec = PluginCodec(world.scenario)
        #expect(String(decoding: codec.start(world), as: UTF8.self) == #"{"start": {"scenario": "demo", "options": {"#
            + world.options.settings.map { s -> String in
                switch s.value {
                case .integer(let n): return "\"\(s.name)\": \(n)"
                case .text(let t): return "\"\(s.name)\": \"\(t)\""
                }
            }.joined(separator: ", ")
            + #"}, "popups": [{"name": "A", "duration": 1000, "showMs": 0, "hideMs": 0, "priority": 1000, "when": "screen == 'home'", "key": "k"}, "#
            + #"{"name": "B.2", "duration": null, "showMs": 0, "hideMs": 0, "level": "high"}], "state": {"screen": "home"}, "holds": ["A"]}}"#)
        var line: [UInt8] = []
        let cases: [(Happening, String)] = [
            (.enqueued(PopupID(0)), #"{"t": 0, "happening": "enqueued", "popup": "A"}"#),
            (.dismissing(PopupID(1), .duration), #"{"t": 0, "happening": "dismissing", "popup": "B.2", "reason": "duration"}"#),
            (.pauseTimers(.all), #"{"t": 0, "happening": "pauseTimers", "all": true}"#),
            (.resumeTimers(.popup(PopupID(0))), #"{"t": 0, "happening": "resumeTimers", "popup": "A"}"#),
            (.timer(7), #"{"t": 0, "happening": "timer", "token": 7}"#),
            (.clearUpTo(-3), #"{"t": 0, "happening": "clearUpTo", "priority": -3}"#),
            (.clearQueue, #"{"t": 0, "happening": "clearQueue"}"#),
            (.stateChanged, #"{"t": 0, "happening": "stateChanged", "state": {"screen": "home"}, "holds": ["A"]}"#),
            (.finished, #"{"t": 0, "happening": "finished"}"#),
        ]
        for (n, (h, expected)) in cases.enumerated() {
            codec.happening(h, world, seq: n + 1, into: &line)
            #expect(String(decoding: line, as: UTF8.self) == expected.dropLast() + ", \"seq\": \(n + 1)}")
        }
    }

    /// What a plug-in's failure in `body` says, in words (nil when nothing failed).
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as PluginFailure {
            return PluginFailureText.text(error)
        } catch {
            return "\(error)"
        }
    }

    @Test func repliesReadIntoDecisions() throws {
        let codec = PluginCodec(try Self.world().scenario)
        let reply = try codec.reply(Array(#"{"decisions": [{"show": "A", "ms": 0}, {"hide": "A", "reason": "replaced"}, {"warn": null, "reason": "stalled"}, {"startTimer": 10, "token": 2}], "pending": ["B.2"]}"#.utf8))
        #expect(reply.decisions == [.show(PopupID(0), ms: 0, reason: nil), .hide(PopupID(0), .replaced, ms: nil), .warn(nil, .stalled),
                                    .startTimer(after: 10, token: 2)])
        #expect(reply.pending == [PopupID(1)])
        #expect(try codec.reply(Array(" { } ".utf8)).decisions.isEmpty)
        #expect(Self.failure { _ = try codec.reply(Array(#"{"decisions": [{"hide": "A"}]}"#.utf8)) } == "decision hide needs a \"reason\"")
        #expect(Self.failure { _ = try codec.reply(Array(#"{"decisions": [{"show": 3}]}"#.utf8)) } == "show: expected a popup name, got 3")
        #expect(Self.failure { _ = try codec.reply(Array(#"{"decisions": [{"show": "A", "ms": -5}]}"#.utf8)) } == "ms: expected an integer >= 0, got -5")
        #expect(Self.failure { _ = try codec.reply(Array(#"{"decision": []}"#.utf8)) } == "its reply has an unknown key \"decision\"")
        #expect(try codec.reply(Array(#"{"seq": 12}"#.utf8)).seq == 12)
        #expect(try codec.reply(Array(#"{"decisions": [], "seq": 345}"#.utf8)).seq == 345)
        #expect(try codec.reply(Array(#"{"seq": 7, "decisions": []}"#.utf8)).seq == 7)
        #expect(try codec.reply(Array(#"{"decisions": [], "seq": 3}"#.utf8)).decisions.isEmpty)
        #expect(Self.failure { _ = try codec.reply(Array(#"{"seq": "12"}"#.utf8)) } == "its reply's \"seq\" is not an integer")
    }

    /// `"instances": "per-request"` in the handshake; an instance the engine made is named on
    /// every line, its `enqueued` line says whose it is, and a reply may name it.
    @Test func instancesAreAskedForAndAnnounced() throws {
        let hello = #"{"popsimPlugin": 1, "name": "t", "instances": "per-request"}"#
        #expect(try PluginHello.parse(Array(hello.utf8)).instances == .perRequest)
        #expect(try PluginHello.parse(Array(#"{"popsimPlugin": 1, "name": "t"}"#.utf8)).instances == .merge)
        #expect(Self.failure { _ = try PluginHello.parse(Array(#"{"popsimPlugin": 1, "name": "t", "instances": "many"}"#.utf8)) }
                == #"handshake "instances": expected one of merge, per-request, got "many""#)
        let world = try Self.world()
        var codec = PluginCodec(world.scenario)
        codec.addInstance("A#2", of: PopupID(0))
        var line: [UInt8] = []
        codec.happening(.enqueued(PopupID(2)), world, seq: 1, into: &line)
        #expect(String(decoding: line, as: UTF8.self) == #"{"t": 0, "happening": "enqueued", "popup": "A#2", "instanceOf": "A", "seq": 1}"#)
        codec.happening(.gone(PopupID(2)), world, seq: 2, into: &line)
        #expect(String(decoding: line, as: UTF8.self) == #"{"t": 0, "happening": "gone", "popup": "A#2", "seq": 2}"#)
        #expect(try codec.reply(Array(#"{"decisions": [{"show": "A#2"}]}"#.utf8)).decisions == [.show(PopupID(2), ms: nil, reason: nil)])
    }

    /// Thousands of mutated replies and handshakes: each parses or fails with a message.
    @Test func hostileBytesNeverCrash() throws {
        let codec = PluginCodec(try Self.world().scenario)
        let seeds = [#"{"decisions": [{"show": "A", "ms": 0}, {"drop": "B.2", "reason": "duplicate"}], "pending": ["A"]}"#,
                     #"{"popsimPlugin": 1, "name": "x", "options": [{"name": "slots", "default": 2, "minimum": 1}, {"name": "m", "choices": ["a"], "default": "a"}], "fields": ["key"], "skip": ["idle"]}"#]
        var random = SplitMix64(seed: 20)
        var parsed = 0
        for round in 0..<6000 {
            var bytes = Array(seeds[round % 2].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let i = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: i)
                default:
                    let alphabet = Array("{}[]\",:0-9e".utf8)
                    bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: i)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            if (try? codec.reply(bytes)) != nil { parsed += 1 }
            if (try? PluginHello.parse(bytes)) != nil { parsed += 1 }
        }
        #expect(parsed > 50, "some mutations must still parse, or the test only feeds garbage")
    }
}
