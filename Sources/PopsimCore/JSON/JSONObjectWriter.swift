/// One JSON object as popsim's outputs write it: `{"key": value, …}` on one line (or with a line
/// break before a member where asked), keys in the order given, strings escaped by
/// `JSONValue.literal` (terminal-safe).
///
/// Why one writer: the JSON outputs (run, compare, check, lint, explore, replay, the trace chart,
/// the plug-in protocol, `gen`) each wrote their objects by hand, and their spacing and escaping
/// could drift apart. The per-line hot loops (a run's timeline entries, the plug-in protocol's
/// happening lines, `gen`'s events) append to a buffer they reuse, with each member's opening made
/// here once (`opening`), so they keep this layout without a String per line.
public struct JSONObjectWriter: Sendable {
    private var text = "{"
    private var empty = true
    private var separator = ", "

    public init() {}

    private mutating func key(_ key: String) {
        if !empty { text += separator }
        empty = false
        separator = ", "
        text += JSONValue.literal(key) + ": "
    }

    /// The next member goes on a new line, after `indent`.
    public mutating func breakLine(indent: String) { separator = ",\n" + indent }

    public mutating func add(_ key: String, _ value: String) {
        self.key(key)
        text += JSONValue.literal(value)
    }

    public mutating func add(_ key: String, _ value: String?) {
        self.key(key)
        text += value.map(JSONValue.literal) ?? "null"
    }

    public mutating func add(_ key: String, _ value: Int) {
        self.key(key)
        text += String(value)
    }

    public mutating func add(_ key: String, _ value: Int?) {
        self.key(key)
        text += value.map(String.init) ?? "null"
    }

    public mutating func add(_ key: String, _ value: Bool) {
        self.key(key)
        text += value ? "true" : "false"
    }

    /// A value already written as JSON (an object, an array, `null`).
    public mutating func add(_ key: String, json: String) {
        self.key(key)
        text += json
    }

    public mutating func add(_ key: String, strings: [String]) { add(key, json: Self.array(strings.map(JSONValue.literal))) }

    /// The object, closed.
    public var closed: String { text + "}" }

    /// The object without its closing brace, for a caller that writes more after it by hand.
    public var open: String { text }

    /// `[a, b]` of values already written as JSON.
    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// `[` then each item on its own line after `indent`, then `]` after `closing` — or `[]`.
    public static func lines(_ items: [String], indent: String, closing: String) -> String {
        items.isEmpty ? "[]" : "[\n" + items.map { indent + $0 }.joined(separator: ",\n") + "\n" + closing + "]"
    }

    /// A JSON string.
    public static func string(_ s: String) -> String { JSONValue.literal(s) }
}

extension JSONObjectWriter {
    /// A member's opening as bytes, made once for a per-line hot loop: `{"key": ` for an object's
    /// first member, `, "key": ` after.
    public static func opening(_ key: String, first: Bool = false) -> [UInt8] {
        Array(((first ? "{" : ", ") + JSONValue.literal(key) + ": ").utf8)
    }

    /// A string value as bytes (`"word"`), made once for a per-line hot loop.
    public static func bytes(_ value: String) -> [UInt8] { Array(JSONValue.literal(value).utf8) }
}
