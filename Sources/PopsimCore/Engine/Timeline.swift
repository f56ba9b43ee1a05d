/// What happened in a run, in order: the product popsim exists to print.
///
/// Subjects (popup ids and screen names) are interned into `subjects`, so entries are small
/// plain values; renderers turn them back into names. Contract: `t` never decreases.
public struct Timeline: Sendable, Equatable {
    public var subjects: [String]
    public var entries: [Entry]
    /// Buttons named on `hide … user` lines (a press of anything but `close`), interned.
    public var buttons: [String] = []
    /// Per popup subject, the file's popup it is an instance of (`InstancePolicy.perRequest`:
    /// `Saved#2` is an instance of `Saved`); empty when the run made no instance. Instances come
    /// after the file's popups and before the screens.
    public var bases: [Int32] = []

    public init(subjects: [String], entries: [Entry] = [], buttons: [String] = [], bases: [Int32] = []) {
        self.subjects = subjects
        self.entries = entries
        self.buttons = buttons
        self.bases = bases
    }

    /// The file's popup that subject `s` is, or is an instance of (`s` itself for any other).
    @inline(__always)
    public func base(_ s: Int32) -> Int32 {
        s >= 0 && Int(s) < bases.count ? bases[Int(s)] : s
    }

    /// For an instance's subject, its number (`Saved#2`: 2); nil for any other subject.
    public func instanceNumber(_ s: Int32) -> Int? {
        let b = base(s)
        guard b != s, s >= 0, Int(s) < subjects.count, Int(b) < subjects.count else { return nil }
        return Int(subjects[Int(s)].dropFirst(subjects[Int(b)].count + 1))
    }

    /// For an instance's subject, its file's popup's name and its number (`Saved#2`: Saved, 2).
    public func instance(_ s: Int32) -> (popup: String, number: Int)? {
        instanceNumber(s).map { (subjects[Int(base(s))], $0) }
    }

    /// The file's popup `p` and its instances, as subjects, oldest first.
    public func subjects(of p: PopupID) -> [Int32] {
        [p.index] + bases.indices.lazy.map { Int32($0) }.filter { $0 != p.index && bases[Int($0)] == p.index }
    }

    /// Whether subject `s` is the file's popup `p` or an instance of it.
    @inline(__always)
    public func isPopup(_ s: Int32, _ p: PopupID) -> Bool { base(s) == p.index }

    /// Puts the screens a run interned apart (`Engine.deferredScreen`: subject -2 - k for the
    /// k-th) after the popups and instances, and the lines that name them with them; takes the
    /// world's `bases`. Once, at the end of a run that may make instances: an instance made
    /// after a screen would otherwise move every line of it up one place.
    mutating func settle(screens: [String], bases: [Int32]) {
        self.bases = bases
        guard !screens.isEmpty else { return }
        let first = Int32(subjects.count)
        subjects += screens
        for i in entries.indices where entries[i].subject <= -2 { entries[i].subject = first &- 2 &- entries[i].subject }
    }

    /// Empty again for a run of the same `popups`, in this timeline's storage: the subjects back
    /// to the popups' names (screens a run added are dropped).
    mutating func reset(subjects popups: [Popup]) {
        if subjects.count >= popups.count {
            if subjects.count > popups.count { subjects.removeSubrange(popups.count...) }
        } else {
            subjects = popups.map(\.name)
        }
        entries.empty()
        buttons.empty()
        bases.empty()
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
