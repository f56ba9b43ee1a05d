/// The text form of a timeline: one aligned line per entry, time first (also the golden format).
///
/// Line shape: `<t right-aligned>  <event padded>  <subject padded>  <reason>`, trailing spaces
/// removed, `-` for a line without a subject, every line ending in a newline. Widths come from
/// the timeline itself, so the same timeline always gives the same bytes; `TimelineTextParser`
/// reads it back (round trip).
public enum TimelineText {
    static let eventWidth = TimelineEvent.allCases.map(\.rawValue.count).max() ?? 7

    public static func render(_ timeline: Timeline, style: TextStyle = .plain) -> String {
        let timeWidth = timeline.entries.map { String($0.t).count }.max() ?? 1
        let subjectWidth = max(1, timeline.entries.map { (timeline.subjectName($0) ?? "-").count }.max() ?? 1)
        var out = ""
        for entry in timeline.entries {
            var line = String(entry.t).leftPadded(to: timeWidth) + "  "
            let word = entry.event.rawValue
            line += style.paint(word, for: entry.event) + String(repeating: " ", count: eventWidth - word.count) + "  "
            let subject = timeline.subjectName(entry) ?? "-"
            if let reason = entry.reason {
                line += subject.rightPadded(to: subjectWidth) + "  " + reason.rawValue
            } else {
                line += subject
            }
            out += line + "\n"
        }
        return out
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
