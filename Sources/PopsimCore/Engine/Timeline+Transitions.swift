extension Timeline {
    /// Per entry, for `show` and `hide`: whether its `shown` / `gone` line follows.
    public func animatedTransitions() -> [Bool] {
        var animated: [Bool] = [], open: [Int] = []
        animatedTransitions(into: &animated, open: &open)
        return animated // from empty: exactly one per entry
    }

    /// The same into the first `entries.count` of `animated` (it may hold more), with `open`
    /// for its work (buffers a caller keeps).
    func animatedTransitions(into animated: inout [Bool], open: inout [Int]) {
        animated.refill(false, first: entries.count)
        open.refill(-1, count: subjects.count)
        for (i, entry) in entries.enumerated() where entry.subject >= 0 {
            let s = Int(entry.subject)
            switch entry.event {
            case .show, .hide: open[s] = i
            case .shown, .gone:
                if open[s] >= 0 { animated[open[s]] = true }
                open[s] = -1
            default: break
            }
        }
    }
}
