/// A trace time written back in the trace's unit, for a message about a row: milliseconds as
/// they are, seconds with their fraction, ISO 8601 in UTC (`2026-11-17T09:30:00.000Z`: the row's
/// instant, whatever zone it was written in). Why: a message that quoted an ISO row's time as
/// epoch milliseconds named a number the user never wrote.
public enum TraceTimeText {
    public static func text(_ ms: Int, unit: TraceLayout.TimeUnit) -> String {
        switch unit {
        case .ms: return String(ms)
        case .s:
            let whole = ms / 1000, part = (ms % 1000).magnitude
            let sign = ms < 0 && whole == 0 ? "-" : ""
            return part == 0 ? sign + String(whole) : sign + String(whole) + "." + pad(Int(part), 3)
        case .iso8601: return iso(ms)
        }
    }

    /// UTC civil time from epoch milliseconds (days to a date: Howard Hinnant's `civil_from_days`).
    static func iso(_ ms: Int) -> String {
        let days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let inDay = ms - days * 86_400_000
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let h = inDay / 3_600_000, m = inDay / 60_000 % 60, s = inDay / 1000 % 60, f = inDay % 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(f, 3) + "Z"
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n.magnitude)
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
