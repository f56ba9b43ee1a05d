/// The numbers under a timeline (design.md §6), derived from the run alone.
public struct Summary: Sendable, Equatable {
    /// Popups shown at least once.
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
        var first: [Int32: PopupSummary] = [:]
        var order: [Int32] = []
        var dropped = 0, warnings = 0
        for entry in result.timeline.entries {
            switch entry.event {
            case .enqueue where first[entry.subject] == nil:
                first[entry.subject] = PopupSummary(popup: result.timeline.subjects[Int(entry.subject)],
                                                    enqueued: entry.t, firstShown: nil)
                order.append(entry.subject)
            case .show where first[entry.subject]?.firstShown == nil:
                first[entry.subject]?.firstShown = entry.t
            case .drop: dropped += 1
            case .warning: warnings += 1
            default: break
            }
        }
        popups = order.compactMap { first[$0] }
        shown = popups.filter { $0.firstShown != nil }.count
        self.dropped = dropped
        self.warnings = warnings
        pending = result.pending.count
        end = result.end
    }
}

/// When one popup was first enqueued and first shown.
public struct PopupSummary: Sendable, Equatable {
    public var popup: String
    public var enqueued: Int
    public var firstShown: Int?

    /// How long it waited for its first show, if it was ever shown.
    public var wait: Int? { firstShown.map { $0 - enqueued } }
}
