/// How sure a share of users is: the 95 % Wilson score interval of `k` agreeing users of `n`, in
/// basis points (0 to 10,000). `fit` keeps as "models that fit" every finalist whose agreement
/// lies at or above the lower end of the best's interval (docs/fit.md, "How sure"): a model the
/// held-out users cannot tell from the best.
///
/// Why Wilson: it stays inside 0–100 % and is honest at the ends, where fits live (100 of 100
/// agreeing is 96.3–100 %, not 100–100 %).
public enum AgreementInterval {
    /// The normal quantile of a two-sided 95 % interval.
    public static let z = 1.959964

    /// The interval of `k` of `n` (none: 0–10,000), its ends rounded outwards.
    public static func wilson(_ k: Int, of n: Int) -> (low: Int, high: Int) {
        guard n > 0 else { return (0, 10_000) }
        let p = Double(min(max(k, 0), n)) / Double(n), nn = Double(n), z2 = z * z
        let centre = (p + z2 / (2 * nn)) / (1 + z2 / nn)
        let half = z * (p * (1 - p) / nn + z2 / (4 * nn * nn)).squareRoot() / (1 + z2 / nn)
        let low = Int(((centre - half) * 10_000).rounded(.down)), high = Int(((centre + half) * 10_000).rounded(.up))
        return (max(0, low), min(10_000, high))
    }

    /// Whether `k` of `n` is at least `basisPoints` (compared in integers: `k · 10,000 ≥ bp · n`).
    public static func atLeast(_ k: Int, of n: Int, _ basisPoints: Int) -> Bool {
        guard n > 0 else { return true }
        let a = UInt(max(0, k)).multipliedFullWidth(by: 10_000), b = UInt(max(0, basisPoints)).multipliedFullWidth(by: UInt(n))
        return a.high != b.high ? a.high > b.high : a.low >= b.low
    }
}
