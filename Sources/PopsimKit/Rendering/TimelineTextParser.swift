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
            let fields = raw.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard (3...4).contains(fields.count), let t = Int(fields[0]),
                  let event = TimelineEvent(rawValue: fields[1]) else {
                throw Failure(line: n + 1, message: "expected '<t> <event> <subject> [reason]', got \(JSONValue.quoted(String(raw)))")
            }
            var reason: Reason?
            if fields.count == 4 {
                guard let r = Reason(rawValue: fields[3]) else {
                    throw Failure(line: n + 1, message: "unknown reason \(JSONValue.quoted(fields[3]))")
                }
                reason = r
            }
            var subject: Int32 = -1
            if fields[2] != "-" {
                if let known = index[fields[2]] {
                    subject = known
                } else {
                    subject = Int32(timeline.subjects.count)
                    index[fields[2]] = subject
                    timeline.subjects.append(fields[2])
                }
            }
            timeline.entries.append(Timeline.Entry(t: t, event: event, subject: subject, reason: reason))
        }
        return timeline
    }

    /// Whether two timelines say the same thing (subjects compared by name).
    public static func sameEntries(_ a: Timeline, _ b: Timeline) -> Bool {
        guard a.entries.count == b.entries.count else { return false }
        return zip(a.entries, b.entries).allSatisfy { x, y in
            x.t == y.t && x.event == y.event && x.reason == y.reason && a.subjectName(x) == b.subjectName(y)
        }
    }
}
