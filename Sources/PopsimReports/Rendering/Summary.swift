import PopsimCore

/// The numbers under a timeline (design.md §6), derived from the run alone.
public struct Summary: Sendable, Equatable {
    /// Requests that were shown (`RunResult.requestsShown`: what `shown` counts in every command).
    public var shown: Int
    /// `drop` lines.
    public var dropped: Int
    /// Popups still queued at the end.
    public var pending: Int
    /// `warning` lines.
    public var warnings: Int
    /// The last instant at which anything happened.
    public var end: Int
    /// Every popup enqueued, in order of its first enqueue.
    public var popups: [PopupSummary]

    public init(_ result: RunResult) {
        // Per subject: its first enqueue and first show (-1: not yet), in arrays, not a dictionary.
        let subjects = result.timeline.subjects.count
        var enqueued = [Int](repeating: -1, count: subjects)
        var shownAt = [Int](repeating: -1, count: subjects)
        var order: [Int] = []
        var dropped = 0, warnings = 0
        for entry in result.timeline.entries {
            let s = Int(entry.subject)
            switch entry.event {
            case .enqueue where enqueued[s] < 0:
                enqueued[s] = entry.t
                order.append(s)
            case .show where enqueued[s] >= 0 && shownAt[s] < 0:
                shownAt[s] = entry.t
            case .drop: dropped += 1
            case .warning: warnings += 1
            default: break
            }
        }
        let timeline = result.timeline
        popups = order.map { s in
            var p = PopupSummary(popup: timeline.subjects[s], enqueued: enqueued[s], firstShown: shownAt[s] >= 0 ? shownAt[s] : nil)
            if let (popup, n) = timeline.instance(Int32(s)) {
                p.instanceOf = popup
                p.instanceNumber = n
            }
            return p
        }
        shown = result.requestsShown
        self.dropped = dropped
        self.warnings = warnings
        pending = result.pending.count
        end = result.end
    }
}

/// When one popup was first enqueued and first shown.
public struct PopupSummary: Sendable, Equatable {
    /// Its name in the timeline (`Saved#2` for an instance).
    public var popup: String
    public var enqueued: Int
    public var firstShown: Int?
    /// For an instance: the file's popup and the instance's number (JSON names it so).
    public var instanceOf: String?
    public var instanceNumber: Int?

    public init(popup: String, enqueued: Int, firstShown: Int?) {
        self.popup = popup
        self.enqueued = enqueued
        self.firstShown = firstShown
    }

    /// How long it waited for its first show, if it was ever shown.
    public var wait: Int? { firstShown.map { $0 - enqueued } }
}
