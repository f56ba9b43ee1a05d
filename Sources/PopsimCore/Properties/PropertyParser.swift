/// Parses one `expect` entry (docs/scenario-format.md, "Properties").
///
/// Grammar: words separated by spaces, one form per kind —
/// `no overlap|lost|stalled|untracked|pending`, `shown X`, `never shown X`, `X before Y`,
/// `wait X <= N`, `visible <= N`, `shows [X] <= K per N`. A form is chosen by its first word,
/// except `X before Y`, chosen by its middle word. Popup names are looked up by the caller's
/// `popup` function; a name it does not know is an error carrying the name, so the caller (which
/// holds the index of names) can add a hint.
public struct PropertyParser {
    /// A problem in the text, at a byte offset into it.
    public struct Failure: Error, Equatable, Sendable {
        public var offset: Int
        public var message: String
        public var unknownPopup: String?

        public init(offset: Int, message: String, unknownPopup: String? = nil) {
            self.offset = offset
            self.message = message
            self.unknownPopup = unknownPopup
        }
    }

    /// The first words of the forms, for "did you mean".
    public static let keywords = ["no", "shown", "never", "wait", "visible", "shows"]
    /// What `no` can be followed by.
    public static let noWords = Property.warnings.map(\.rawValue) + ["pending"]

    struct Word {
        var text: String
        var offset: Int
    }

    let words: [Word]
    let end: Int
    let popup: (String) -> PopupID?
    var next = 0

    public static func parse(_ text: String, popup: @escaping (String) -> PopupID?) throws(Failure) -> Property {
        var parser = PropertyParser(words: Self.split(text), end: text.utf8.count, popup: popup)
        let property = try parser.property()
        if parser.next < parser.words.count {
            let extra = parser.words[parser.next]
            throw Failure(offset: extra.offset, message: "unexpected \(JSONValue.quoted(extra.text)) after the property")
        }
        return property
    }

    /// Words and their byte offsets (any run of spaces separates).
    static func split(_ text: String) -> [Word] {
        var words: [Word] = []
        var current: [UInt8] = []
        var start = 0
        for (i, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: " ") || byte == 9 {
                if !current.isEmpty { words.append(Word(text: String(decoding: current, as: UTF8.self), offset: start)) }
                current = []
            } else {
                if current.isEmpty { start = i }
                current.append(byte)
            }
        }
        if !current.isEmpty { words.append(Word(text: String(decoding: current, as: UTF8.self), offset: start)) }
        return words
    }

    mutating func property() throws(Failure) -> Property {
        guard let first = words.first else {
            throw Failure(offset: 0, message: "expected a property, such as 'no overlap' or 'A before B'")
        }
        if words.count >= 2, words[1].text == "before" {
            let x = try popupWord(after: nil)
            next += 1
            let y = try popupWord(after: "before")
            return .before(x, y)
        }
        next = 1
        switch first.text {
        case "no":
            let w = try word(after: "no", expecting: "one of " + Self.noWords.joined(separator: ", "))
            if w.text == "pending" { return .noPending }
            guard let reason = Property.warnings.first(where: { $0.rawValue == w.text }) else {
                throw Failure(offset: w.offset, message: "expected one of \(Self.noWords.joined(separator: ", ")) after 'no', got "
                              + JSONValue.quoted(w.text) + Suggestion.didYouMean(w.text, among: Self.noWords))
            }
            return .noWarning(reason)
        case "shown":
            return .shown(try popupWord(after: "shown"))
        case "never":
            let w = try word(after: "never", expecting: "'shown'")
            guard w.text == "shown" else {
                throw Failure(offset: w.offset, message: "expected 'shown' after 'never', got \(JSONValue.quoted(w.text))")
            }
            return .neverShown(try popupWord(after: "shown"))
        case "wait":
            let x = try popupWord(after: "wait")
            try atMost(after: "wait \(words[1].text)")
            return .waitAtMost(x, try integer(after: "<=", minimum: 0))
        case "visible":
            try atMost(after: "visible")
            return .visibleAtMost(try integer(after: "<=", minimum: 0))
        case "shows":
            var x: PopupID?
            if next < words.count, words[next].text != "<=" { x = try popupWord(after: "shows") }
            try atMost(after: "shows")
            let k = try integer(after: "<=", minimum: 0)
            let per = try word(after: String(k), expecting: "'per'")
            guard per.text == "per" else {
                throw Failure(offset: per.offset, message: "expected 'per' after \(k), got \(JSONValue.quoted(per.text))")
            }
            return .showsAtMost(x, count: k, perMs: try integer(after: "per", minimum: 1))
        default:
            throw Failure(offset: first.offset, message: "unknown property \(JSONValue.quoted(first.text))"
                          + Suggestion.didYouMean(first.text, among: Self.keywords)
                          + "; a property starts with \(Self.keywords.joined(separator: ", ")) or is 'A before B'")
        }
    }

    /// The next word, or an error naming what was expected after `previous`.
    mutating func word(after previous: String, expecting what: String) throws(Failure) -> Word {
        guard next < words.count else {
            throw Failure(offset: end, message: "expected \(what) after \(JSONValue.quoted(previous))")
        }
        next += 1
        return words[next - 1]
    }

    mutating func popupWord(after previous: String?) throws(Failure) -> PopupID {
        guard next < words.count else {
            throw Failure(offset: end, message: "expected a popup after \(JSONValue.quoted(previous ?? ""))")
        }
        let w = words[next]
        next += 1
        guard let id = popup(w.text) else {
            throw Failure(offset: w.offset, message: "unknown popup \(JSONValue.quoted(w.text))", unknownPopup: w.text)
        }
        return id
    }

    mutating func atMost(after previous: String) throws(Failure) {
        let w = try word(after: previous, expecting: "'<='")
        guard w.text == "<=" else {
            throw Failure(offset: w.offset, message: "expected '<=' after \(JSONValue.quoted(previous)), got \(JSONValue.quoted(w.text))")
        }
    }

    mutating func integer(after previous: String, minimum: Int) throws(Failure) -> Int {
        let what = minimum == 0 ? "an integer >= 0" : "an integer > 0"
        let w = try word(after: previous, expecting: what)
        guard w.text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(w.text), n >= minimum else {
            throw Failure(offset: w.offset, message: "expected \(what) after \(JSONValue.quoted(previous)), got \(JSONValue.quoted(w.text))")
        }
        return n
    }
}
