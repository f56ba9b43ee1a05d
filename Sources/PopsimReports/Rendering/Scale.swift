import PopsimCore

/// Integer scaling for charts, exact and overflow-free for any times a scenario can hold.
enum Scale {
    /// `value * range / total` with a 128-bit intermediate, clamped to `0...range`
    /// (`total` at least 1). Times near `Int.max` multiplied by a chart width would overflow `Int`.
    static func map(_ value: Int, _ range: Int, _ total: Int) -> Int {
        let total = max(1, total)
        let value = min(max(0, value), total)
        let product = UInt(value).multipliedFullWidth(by: UInt(max(0, range)))
        let (quotient, _) = UInt(total).dividingFullWidth(product)
        return min(Int(quotient), range)
    }

    /// The mean of non-negative integers, rounded down, without overflowing however large they are.
    static func mean(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        let n = values.count
        var quotients = 0, remainders = 0
        for v in values {
            quotients += v / n
            remainders += v % n
            if remainders >= n {
                quotients += remainders / n
                remainders %= n
            }
        }
        return quotients + remainders / n
    }
}
