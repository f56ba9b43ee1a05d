/// One way a scenario's open questions resolve: per `Scenario.uncertainties` entry, the instant,
/// the batch order (a permutation of the file order's indices) and whether the event happens.
public struct Variant: Sendable, Equatable, Hashable {
    public var times: [Int]
    public var orders: [[Int]]
    public var present: [Bool]

    /// Every window at its start, every batch in file order, every event happening.
    public static func nominal(_ uncertainties: [Uncertainty]) -> Variant {
        Variant(times: uncertainties.map { $0.window?.lowerBound ?? 0 },
                orders: uncertainties.map { Array(0..<($0.batch ?? 0)) },
                present: uncertainties.map { _ in true })
    }

    public static func nominal(of scenario: Scenario) -> Variant { nominal(scenario.uncertainties) }

    /// The batch of uncertainty `k` in this variant's order: `list` (in file order) reordered,
    /// or nil when `list` is not that batch.
    public func batch<T>(_ k: Int, _ list: [T]) -> [T]? {
        guard list.count == orders[k].count, list.count > 1 else { return nil }
        return orders[k].map { list[$0] }
    }
}
