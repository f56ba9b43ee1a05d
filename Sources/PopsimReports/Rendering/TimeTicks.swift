/// Round tick values for a time axis: steps of 1, 2 or 5 times a power of ten ms, so that labels
/// read `0`, `2 s`, `4 s` rather than `3815 ms`.
enum TimeTicks {
    /// The ticks from 0 to `end` (inclusive) about `count` apart, at least one step.
    static func ticks(end: Int, count: Int = 8) -> [Int] {
        let step = self.step(end: end, count: count)
        var out: [Int] = []
        var t = 0
        while t <= end {
            out.append(t)
            let (next, overflow) = t.addingReportingOverflow(step)
            if overflow { break }
            t = next
        }
        return out
    }

    static func step(end: Int, count: Int) -> Int {
        let raw = max(1, end / max(1, count))
        var power = 1
        while power <= raw / 10 { power *= 10 }
        for m in [1, 2, 5, 10] where power.multipliedReportingOverflow(by: m).partialValue >= raw {
            return power * m
        }
        return power * 10
    }

    /// `0`, `250 ms`, `2 s`, `1.5 s`, `3 min`.
    static func label(_ t: Int) -> String {
        if t == 0 { return "0" }
        if t % 60_000 == 0 && t >= 120_000 { return "\(t / 60_000) min" }
        if t % 1000 == 0 { return "\(t / 1000) s" }
        if t >= 1000 && t % 100 == 0 { return "\(t / 1000).\(t % 1000 / 100) s" }
        return "\(t) ms"
    }
}
