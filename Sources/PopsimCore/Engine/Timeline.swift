/// What happened in a run, in order: the product popsim exists to print.
///
/// Subjects (popup ids and screen names) are interned into `subjects`, so entries are small
/// plain values; renderers turn them back into names. Contract: `t` never decreases.
public struct Timeline: Sendable, Equatable {
    public var subjects: [String]
    public var entries: [Entry]

    public init(subjects: [String], entries: [Entry] = []) {
        self.subjects = subjects
        self.entries = entries
    }

    /// One line of the timeline: 16 bytes (fields ordered so that nothing is padding).
    public struct Entry: Sendable, Equatable {
        public var t: Int
        /// Index into `subjects`, or -1 when the line has none (`suspend`, `resume`).
        public var subject: Int32
        public var event: TimelineEvent
        public var reason: Reason?

        public init(t: Int, event: TimelineEvent, subject: Int32, reason: Reason? = nil) {
            self.t = t
            self.event = event
            self.subject = subject
            self.reason = reason
        }
    }

    public func subjectName(_ entry: Entry) -> String? {
        entry.subject >= 0 ? subjects[Int(entry.subject)] : nil
    }
}
