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

    /// The labels of an axis's ticks, all in one unit (`0, 2 min, 4 min`, never `5 min` beside
    /// `400 s`): minutes when every tick is a whole minute (and the axis reaches 2 min), seconds
    /// when every tick is a whole second, tenths of seconds when every tick is a tenth (past 1 s),
    /// else milliseconds. Zero is `0`.
    static func labels(_ ticks: [Int]) -> [String] {
        let last = ticks.last ?? 0
        let unit: Unit
        if ticks.allSatisfy({ $0 % 60_000 == 0 }) && last >= 120_000 {
            unit = .minutes
        } else if ticks.allSatisfy({ $0 % 1000 == 0 }) && last >= 1000 {
            unit = .seconds
        } else if ticks.allSatisfy({ $0 % 100 == 0 }) && last >= 1000 {
            unit = .tenths
        } else {
            unit = .milliseconds
        }
        return ticks.map { unit.label($0) }
    }

    enum Unit {
        case minutes, seconds, tenths, milliseconds

        func label(_ t: Int) -> String {
            if t == 0 { return "0" }
            switch self {
            case .minutes: return "\(t / 60_000) min"
            case .seconds: return "\(t / 1000) s"
            case .tenths: return "\(t / 1000).\(t % 1000 / 100) s"
            case .milliseconds: return "\(t) ms"
            }
        }
    }
}
