/// How a team's own export reads as a trace (issue 40, docs/replay.md "Your own export"): which
/// event names mean which of popsim's words, how an event sets state or changes screen, which
/// export names are which catalog popups, and the time zone of times written without one.
/// Columns and the time unit are `TraceLayout`'s (a mapping file sets them too).
///
/// Contract: an event name the mapping names means what it says; else popsim's own word; else
/// the row is skipped and counted by its event name (never an error: an export carries many
/// events popsim has no use for). A mapping that names no event leaves every row to popsim's
/// words, as without one.
public struct TraceMapping: Sendable, Equatable {
    /// What one event name means.
    public enum Meaning: Sendable, Equatable {
        /// A verb; the row's popup and value read as for popsim's own word.
        case verb(TraceVerb)
        /// `set VARIABLE`: the row's value is the variable's new value (`screen_view` with
        /// `home` → `set screen=home`).
        case setVariable(String)
        /// A verb with a fixed value: `set foreground=false`, `replace home`, `dismissed ok`.
        case verbWith(TraceVerb, value: String)
    }

    /// Event name → meaning, in the order written.
    public var events: [(name: String, meaning: Meaning)] = []
    /// Export popup name → catalog popup name.
    public var popups: [(name: String, popup: String)] = []
    /// Minutes east of UTC for ISO 8601 times without a zone (0: UTC).
    public var timeZoneMinutes = 0

    public init() {}

    /// Whether rows popsim cannot read as an action are skipped (an event mapping is given).
    public var skipsUnknownEvents: Bool { !events.isEmpty }

    /// Reads a meaning as written: a verb (`enqueue`, `shown`), `set VARIABLE`, or a verb and a
    /// fixed value (`set foreground=false`, `replace home`); nil when the first word is no verb.
    public static func meaning(_ text: String) -> Meaning? {
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = words.first, let verb = TraceVerb.all.first(where: { $0.word == first }) else { return nil }
        guard words.count == 2 else { return .verb(verb) }
        if case .action(let kind) = verb, kind.argument == .state, !words[1].contains("=") { return .setVariable(words[1]) }
        return .verbWith(verb, value: words[1])
    }

    /// A meaning that gives a fixed value to a verb that reads none (`enqueue rate`, `clear zzz`:
    /// the value would be dropped without a word): the verb and the value; nil when it is not one.
    /// A mapping file and `--event` refuse it alike.
    public static func refusedValue(_ meaning: Meaning) -> (verb: TraceVerb, value: String)? {
        guard case .verbWith(let verb, let value) = meaning, !verb.takesValue else { return nil }
        return (verb, value)
    }

    /// `Z`, `UTC`, `+HH:MM` or `-HH:MM` as minutes east of UTC; nil for anything else.
    public static func timeZone(_ text: String) -> Int? {
        if text == "Z" || text == "UTC" { return 0 }
        let b = Array(text.utf8)
        guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":"),
              let h = Int(String(decoding: b[1..<3], as: UTF8.self)), let m = Int(String(decoding: b[4..<6], as: UTF8.self)),
              h < 24, m < 60, b[1..<3].allSatisfy({ $0 >= 48 && $0 <= 57 }), b[4..<6].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return (h * 60 + m) * (b[0] == UInt8(ascii: "+") ? 1 : -1)
    }

    public static func == (a: TraceMapping, b: TraceMapping) -> Bool {
        a.events.elementsEqual(b.events, by: { $0.name == $1.name && $0.meaning == $1.meaning })
            && a.popups.elementsEqual(b.popups, by: { $0.name == $1.name && $0.popup == $1.popup }) && a.timeZoneMinutes == b.timeZoneMinutes
    }
}
