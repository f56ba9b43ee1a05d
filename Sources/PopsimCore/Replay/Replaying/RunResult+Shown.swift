extension RunResult {
    /// Requests that were shown: shows that answer the oldest open request of their popup, one
    /// that an `enqueue` opened (the ledger, docs/engine.md); a popup shown again after a
    /// temporary hide is not a new one. What "shown" counts in every command (run's and
    /// compare's summaries, replay's tally).
    public var requestsShown: Int {
        var open = OpenRequests(subjects: timeline.subjects.count)
        var shown = 0
        for e in timeline.entries where e.subject >= 0 && open.read(e, Int(e.subject))?.request == true { shown += 1 }
        return shown
    }
}
