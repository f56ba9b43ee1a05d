/// The variants an exploration runs, numbered from 0, computed when asked for (a plan of ten
/// million variants holds none of them): variant i of an exhaustive plan is the space's variant
/// i; of a sample, the fixed ones first, then one drawn from a generator seeded by the seed and i
/// (so a shard computes its variants without the others; a sample may repeat a variant).
public struct Plan: Sendable {
    public let space: VariantSpace
    public let count: Int
    public let exhaustive: Bool
    /// The sample's fixed variants after the nominal one: the uncertainty whose window is at
    /// its end in each. Indices, not variants: a variant holds an entry per uncertainty, so a
    /// list of them grew with windows × windows (a 678 KB file peaked at 1.5 GB).
    let ends: [Int]
    let seed: UInt64

    public var indices: Range<Int> { 0..<count }

    public subscript(i: Int) -> Variant {
        if exhaustive { return space.variant(i) }
        if i == 0 { return Variant.nominal(space.uncertainties) }
        if i <= ends.count {
            var end = Variant.nominal(space.uncertainties)
            let k = ends[i - 1]
            end.times[k] = space.uncertainties[k].window?.upperBound ?? end.times[k]
            return end
        }
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(i))
        return space.random(&rng)
    }
}
