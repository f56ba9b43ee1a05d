/// What happened in a run, in order: the product popsim exists to print.
///
/// Subjects (popup ids and screen names) are interned into `subjects`, so entries are small
/// plain values; renderers turn them back into names. Contract: `t` never decreases.
public struct Timeline: Sendable, Equatable {
    public var subjects: [String]
    public var entries: [Entry]
    /// Buttons named on `hide … user` lines (a press of anything but `close`), interned.
    public var buttons: [String] = []

    public init(subjects: [String], entries: [Entry] = [], buttons: [String] = []) {
        self.subjects = subjects
        self.entries = entries
        self.buttons = buttons
    }

    /// Empty again for a run of the same `popups`, in this timeline's storage: the subjects back
    /// to the popups' names (screens a run added are dropped).
    mutating func reset(subjects popups: [Popup]) {
        if subjects.count >= popups.count {
            if subjects.count > popups.count { subjects.removeSubrange(popups.count...) }
        } else {
            subjects = popups.map(\.name)
        }
        entries.removeAll(keepingCapacity: true)
        buttons.removeAll(keepingCapacity: true)
    }

    /// The button a `hide … user` line names, if it is not `close`.
    public func button(_ entry: Entry) -> String? {
        entry.button > 0 ? buttons[Int(entry.button) - 1] : nil
    }

    /// The index to store in `Entry.button` for `name` (interned on first use).
    public mutating func buttonIndex(_ name: String) -> UInt16 {
        if let i = buttons.firstIndex(of: name) { return UInt16(i + 1) }
        buttons.append(name)
        return UInt16(buttons.count)
    }

    /// One line of the timeline: 16 bytes (fields ordered so that nothing is padding).
    public struct Entry: Sendable, Equatable {
        public var t: Int
        /// Index into `subjects`, or -1 when the line has none (`suspend`, `resume`).
        public var subject: Int32
        public var event: TimelineEvent
        public var reason: Reason?
        /// On a `hide … user` line: 1 + the index of the pressed button in `buttons`, 0 for `close`.
        public var button: UInt16 = 0

        public init(t: Int, event: TimelineEvent, subject: Int32, reason: Reason? = nil, button: UInt16 = 0) {
            self.t = t
            self.event = event
            self.subject = subject
            self.reason = reason
            self.button = button
        }
    }

    public func subjectName(_ entry: Entry) -> String? {
        entry.subject >= 0 ? subjects[Int(entry.subject)] : nil
    }
}
