import PopsimCore

/// Reads the text form of a timeline back (goldens), so that expected timelines round-trip.
public enum TimelineTextParser {
    /// A line that is not a timeline line.
    public struct Failure: Error, Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    public static func parse(_ text: String) throws(Failure) -> Timeline {
        var timeline = Timeline(subjects: [])
        var index: [String: Int32] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.isEmpty { continue }
            guard let fields = tokens(String(raw)), (3...5).contains(fields.count), let t = Int(fields[0].text),
                  let event = TimelineEvent(rawValue: fields[1].text), fields.count < 5 || fields[3].text == Reason.user.rawValue else {
                throw Failure(line: n + 1, message: "expected '<t> <event> <subject> [reason [button]]', got \(JSONValue.quoted(String(raw)))")
            }
            var reason: Reason?
            if fields.count >= 4 {
                guard let r = Reason(rawValue: fields[3].text) else {
                    throw Failure(line: n + 1, message: "unknown reason \(JSONValue.quoted(fields[3].text))")
                }
                reason = r
            }
            var subject: Int32 = -1
            let name = fields[2]
            if name.quoted || name.text != "-" {
                if let known = index[name.text] {
                    subject = known
                } else {
                    subject = Int32(timeline.subjects.count)
                    index[name.text] = subject
                    timeline.subjects.append(name.text)
                }
            }
            let button = fields.count == 5 ? timeline.buttonIndex(fields[4].text) : 0
            timeline.entries.append(Timeline.Entry(t: t, event: event, subject: subject, reason: reason, button: button))
        }
        return timeline
    }

    struct Token {
        var text: String
        var quoted: Bool
    }

    /// Space-separated tokens; a token starting with `"` is a JSON string (it may hold spaces).
    static func tokens(_ line: String) -> [Token]? {
        var out: [Token] = []
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x20 { i += 1; continue }
            let start = i
            if bytes[i] == UInt8(ascii: "\"") {
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                guard i < bytes.count else { return nil }
                i += 1
                guard case .string(let s)? = try? JSONReader.parse(Array(bytes[start..<i])).kind else { return nil }
                out.append(Token(text: s, quoted: true))
            } else {
                while i < bytes.count, bytes[i] != 0x20 { i += 1 }
                out.append(Token(text: String(decoding: bytes[start..<i], as: UTF8.self), quoted: false))
            }
        }
        return out
    }

    /// Whether two timelines say the same thing (subjects compared by name).
    public static func sameEntries(_ a: Timeline, _ b: Timeline) -> Bool {
        guard a.entries.count == b.entries.count else { return false }
        return zip(a.entries, b.entries).allSatisfy { x, y in
            x.t == y.t && x.event == y.event && x.reason == y.reason && a.subjectName(x) == b.subjectName(y)
                && a.button(x) == b.button(y)
        }
    }
}
