/// The variants an exploration runs, numbered from 0, computed when asked for (a plan of ten
/// million variants holds none of them): variant i of an exhaustive plan is the space's variant
/// i; of a sample, the fixed ones first, then one drawn from a generator seeded by the seed and i
/// (so a shard computes its variants without the others; a sample may repeat a variant).
public struct Plan: Sendable {
    public let space: VariantSpace
    public let count: Int
    public let exhaustive: Bool
    let ends: [Variant]
    let seed: UInt64

    public var indices: Range<Int> { 0..<count }

    public subscript(i: Int) -> Variant {
        if exhaustive { return space.variant(i) }
        if i < ends.count { return ends[i] }
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(i))
        return space.random(&rng)
    }
}
