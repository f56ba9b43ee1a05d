import PopsimCore

/// The numbers `compare` sets side by side for one run, all derived from its timeline.
public struct RunMetrics: Sendable, Equatable {
    public var shown = 0
    public var dropped = 0
    public var lost = 0
    public var overlaps = 0
    public var pending = 0
    /// When the last popup went off screen, if any did.
    public var lastGone: Int?
    public var longestWait: Int?
    /// Mean of the waits of the popups shown, in ms, rounded down.
    public var meanWait: Int?
    /// The popups enqueued in this run, by first enqueue, and what became of each.
    public var order: [String] = []
    public var outcomes: [String: PopupOutcome] = [:]

    /// What became of `name` (never enqueued when this run has no line for it).
    public func outcome(of name: String) -> PopupOutcome {
        outcomes[name] ?? PopupOutcome(firstShown: nil, whyNot: "never enqueued", wait: nil, preempted: 0)
    }

    /// What became of one popup in one run.
    public struct PopupOutcome: Sendable, Equatable {
        public var firstShown: Int?
        /// Why it never showed: `dropped (condition)`, `lost`, `pending`, `never enqueued`, ….
        public var whyNot: String?
        public var wait: Int?
        /// Hides with reason `preempted` or `temporary`.
        public var preempted: Int
    }

    init(_ result: RunResult) {
        let summary = Summary(result)
        shown = summary.shown
        dropped = summary.dropped
        pending = summary.pending
        let timeline = result.timeline
        var lastDrop: [String: Reason] = [:]
        var lostNames = Set<String>()
        var preempted: [String: Int] = [:]
        let animated = timeline.animatedTransitions()
        for (i, entry) in timeline.entries.enumerated() {
            let name = timeline.subjectName(entry) ?? ""
            switch (entry.event, entry.reason) {
            case (.warning, .lost?): lost += 1; lostNames.insert(name)
            case (.warning, .overlap?): overlaps += 1
            case (.drop, let reason?): lastDrop[name] = reason
            case (.hide, let reason?) where reason.isPreemption: preempted[name, default: 0] += 1
            case (.gone, _): lastGone = max(lastGone ?? 0, entry.t)
            case (.hide, _) where !animated[i]:
                // A 0 ms hide writes no `gone`: the popup is off screen at the hide itself.
                lastGone = max(lastGone ?? 0, entry.t)
            default: break
            }
        }
        let waits = summary.popups.compactMap(\.wait)
        longestWait = waits.max()
        meanWait = Scale.mean(waits)
        let pendingNames = Set(result.pending.map { result.scenario.name(of: $0) })
        order = summary.popups.map(\.popup)
        for s in summary.popups {
            var why: String?
            if s.firstShown == nil {
                if lostNames.contains(s.popup) { why = "lost" }
                else if let reason = lastDrop[s.popup] { why = "dropped (\(reason.rawValue))" }
                else if pendingNames.contains(s.popup) { why = "pending" }
                else { why = "never shown" }
            }
            outcomes[s.popup] = PopupOutcome(firstShown: s.firstShown, whyNot: why, wait: s.wait, preempted: preempted[s.popup] ?? 0)
        }
    }
}
