import PopsimCore

/// One scenario run under several strategies, set side by side against the first (the reference).
public struct Comparison: Sendable {
    /// One compared run: the label the user wrote (`fg:order=priority+lifo`) and its result.
    public struct Run: Sendable {
        public var label: String
        public var result: RunResult
        public var metrics: RunMetrics
        /// The scenario's `expect`, judged on this run.
        public var verdicts: [PropertyVerdict] = []
    }

    /// Where a run's timeline first differs from the reference's, and what each did then.
    public struct Divergence: Sendable, Equatable {
        public var t: Int
        public var reference: [String]
        public var other: [String]
    }

    public var scenario: Scenario
    public var runs: [Run] = []
    /// Every popup enqueued in any run, by first enqueue in the reference, then the others.
    public var popups: [String] = []
    private var listed: Set<String> = []
    /// Per run after the reference: nil when its timeline is identical.
    public var divergences: [Divergence?] = []

    public init(scenario: Scenario, results: [(label: String, result: RunResult)]) {
        self.init(scenario: scenario)
        for (label, result) in results { add(label: label, result: result) }
    }

    /// An empty comparison, to which runs are added one by one (`add`).
    public init(scenario: Scenario) {
        self.scenario = scenario
    }

    /// Adds a run: its metrics, and where it departs from the reference (the first run added).
    /// `keepTimeline: false` keeps only what the text, JSON and markdown reports need, so
    /// comparing many strategies holds two timelines at a time, not one per strategy.
    public mutating func add(label: String, result: RunResult, keepTimeline: Bool = true) {
        let metrics = RunMetrics(result)
        for name in metrics.order where listed.insert(name).inserted { popups.append(name) }
        var kept = result
        if let reference = runs.first {
            divergences.append(Self.divergence(reference.result.timeline, result.timeline))
            if !keepTimeline { kept.timeline = Timeline(subjects: result.timeline.subjects, buttons: result.timeline.buttons) }
        }
        runs.append(Run(label: label, result: kept, metrics: metrics, verdicts: PropertyJudge.verdicts(result)))
    }

    static func divergence(_ a: Timeline, _ b: Timeline) -> Divergence? {
        var i = 0
        while i < a.entries.count, i < b.entries.count, same(a, a.entries[i], b, b.entries[i]) { i += 1 }
        guard i < a.entries.count || i < b.entries.count else { return nil }
        let t = min(i < a.entries.count ? a.entries[i].t : Int.max, i < b.entries.count ? b.entries[i].t : Int.max)
        return Divergence(t: t, reference: describe(a, from: i, at: t), other: describe(b, from: i, at: t))
    }

    static func same(_ a: Timeline, _ x: Timeline.Entry, _ b: Timeline, _ y: Timeline.Entry) -> Bool {
        x.t == y.t && x.event == y.event && x.reason == y.reason && a.subjectName(x) == b.subjectName(y)
    }

    /// The entries at instant `t` from index `i`: `hide campaign (preempted)`.
    static func describe(_ timeline: Timeline, from i: Int, at t: Int) -> [String] {
        var out: [String] = []
        var j = i
        while j < timeline.entries.count, timeline.entries[j].t == t {
            let e = timeline.entries[j]
            out.append([e.event.rawValue, timeline.subjectName(e), e.reason.map { "(\($0.rawValue))" }]
                .compactMap { $0 }.joined(separator: " "))
            j += 1
        }
        guard out.isEmpty else { return out }
        guard j < timeline.entries.count else { return ["nothing more"] }
        return ["nothing (next, at \(timeline.entries[j].t) ms: " + describe(timeline, from: j, at: timeline.entries[j].t).joined(separator: "; ") + ")"]
    }
}
