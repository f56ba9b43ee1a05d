extension Timeline {
    /// Per entry, for `show` and `hide`: whether its `shown` / `gone` line follows.
    public func animatedTransitions() -> [Bool] {
        var animated = [Bool](repeating: false, count: entries.count)
        var open = [Int](repeating: -1, count: subjects.count)
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
        return animated
    }
}
