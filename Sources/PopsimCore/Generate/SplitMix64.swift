/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator whose output is fixed forever.
///
/// popsim never uses the standard library's random mapping, whose algorithms may change between
/// releases; `below` maps to a range by multiply-shift, so the same seed gives the same scenario.
public struct SplitMix64: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (Lemire's multiply-shift, without rejection: the bias is < 2^-40
    /// for the small bounds popsim uses, and it is deterministic, which is what matters here).
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with probability `percent` in 100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
