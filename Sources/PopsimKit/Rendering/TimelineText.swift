/// The text form of a timeline: one aligned line per entry, time first (also the golden format).
///
/// Line shape: `<t right-aligned>  <event padded>  <subject padded>  <reason>`, trailing spaces
/// removed, `-` for a line without a subject, every line ending in a newline. Widths come from
/// the timeline itself, so the same timeline always gives the same bytes; `TimelineTextParser`
/// reads it back (round trip).
public enum TimelineText {
    static let eventWidth = TimelineEvent.allCases.map(\.rawValue.count).max() ?? 7

    public static func render(_ timeline: Timeline, style: TextStyle = .plain) -> String {
        var writer = ByteWriter()
        render(timeline, style: style, into: &writer)
        return writer.text
    }

    /// Formats straight into `writer`.
    /// - Complexity: O(n) with no allocation per line.
    public static func render(_ timeline: Timeline, style: TextStyle = .plain, into writer: inout ByteWriter) {
        let names = timeline.subjects.map { Array($0.utf8) }
        let counts = timeline.subjects.map(\.count)
        var timeWidth = 1, subjectWidth = 1
        for entry in timeline.entries {
            timeWidth = max(timeWidth, ByteWriter.width(of: entry.t))
            if entry.subject >= 0 { subjectWidth = max(subjectWidth, counts[Int(entry.subject)]) }
        }
        let words = TimelineEvent.allCases.map { (event: TimelineEvent) -> [UInt8] in Array(style.paint(event.rawValue, for: event).utf8) }
        let wordCounts = TimelineEvent.allCases.map(\.rawValue.count)
        let reasons = Reason.allCases.map { Array($0.rawValue.utf8) }
        for entry in timeline.entries {
            writer.integer(entry.t, width: timeWidth)
            writer.spaces(2)
            let e = entry.event.ordinal
            writer.write(bytes: words[e])
            writer.spaces(eventWidth - wordCounts[e] + 2)
            if entry.subject >= 0 {
                writer.write(bytes: names[Int(entry.subject)])
            } else {
                writer.byte(0x2D)
            }
            if let reason = entry.reason {
                let used = entry.subject >= 0 ? counts[Int(entry.subject)] : 1
                writer.spaces(subjectWidth - used + 2)
                writer.write(bytes: reasons[reason.ordinal])
            }
            writer.byte(0x0A)
        }
        writer.flushIfFull()
    }
}

/// Whether text output carries ANSI colour; colour never carries meaning the words lack.
public enum TextStyle: Sendable {
    case plain, color

    func paint(_ text: String, for event: TimelineEvent) -> String {
        guard self == .color else { return text }
        let code: String
        switch event {
        case .show, .shown: code = "32"
        case .hide, .gone: code = "33"
        case .drop: code = "31"
        case .warning: code = "1;31"
        case .nav, .suspend, .resume: code = "36"
        case .enqueue, .requeue: code = "2"
        }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }
}
