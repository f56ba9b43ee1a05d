/// Milliseconds as a reader says them: `680 ms`, `4.8 s`, `30 s`, `2.5 min`, `1.2 h` (one
/// decimal, dropped when it is 0), and a range in one unit where both ends have it
/// (`4.8–32.8 s`). For reports a person reads; CSV and JSON keep the milliseconds.
public enum HumanTime {
    static let units: [(limit: Int, size: Int, name: String)] = [(1_000, 1, "ms"), (60_000, 1_000, "s"), (3_600_000, 60_000, "min"),
                                                                   (Int.max, 3_600_000, "h")]

    public static func text(_ ms: Int) -> String {
        let (number, unit) = parts(ms)
        return number + " " + unit
    }

    /// `low–high` in the unit of the higher end when the lower has it too, else each in its own.
    public static func range(_ low: Int, _ high: Int) -> String {
        let (a, ua) = parts(low), (b, ub) = parts(high)
        return ua == ub ? "\(a)–\(b) \(ub)" : "\(a) \(ua)–\(b) \(ub)"
    }

    /// The number (tenths rounded half up, `.0` dropped) and the unit.
    static func parts(_ ms: Int) -> (String, String) {
        let v = max(0, ms)
        guard let unit = units.first(where: { v < $0.limit }) else { return (String(v), "ms") }
        if unit.size == 1 { return (String(v), unit.name) }
        let tenths = Int((Double(v) * 10 / Double(unit.size)).rounded())
        // 59,999 ms is 60.0 s at one decimal: the next unit says it.
        if tenths >= unit.limit / unit.size * 10, let next = units.first(where: { $0.size > unit.size }) {
            let t = Int((Double(v) * 10 / Double(next.size)).rounded())
            return (decimal(t), next.name)
        }
        return (decimal(tenths), unit.name)
    }

    static func decimal(_ tenths: Int) -> String { tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)" }
}
