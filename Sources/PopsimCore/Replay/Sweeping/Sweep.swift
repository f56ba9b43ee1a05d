/// `--sweep NAME=V1,V2,…` (repeatable): the values each swept name takes, every combination a
/// column (the first name varies slowest). What a name varies is its axis's (`SweepAxes`).
public struct Sweep: Sendable, Equatable {
    public struct Dimension: Sendable, Equatable {
        public var name: String
        public var values: [String]
    }

    public var dimensions: [Dimension] = []
    /// The most columns one strategy may sweep into.
    public static let maxCombinations = 1000

    public init() {}

    public enum Problem: Error, Sendable, Equatable {
        /// Not `NAME=V1,V2,…`, an empty value, or a name given twice.
        case malformed(String)
        case tooManyCombinations
    }

    /// Reads every `--sweep`, each name once, at most `maxCombinations` combinations (counted
    /// without overflow: many sweeps of two values are refused, not wrapped around).
    public static func parse(_ texts: [String]) -> Result<Sweep, Problem> {
        var sweep = Sweep()
        var combinations = 1
        for text in texts {
            let pair = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let values = pair.count == 2 ? pair[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
            guard pair.count == 2, !pair[0].isEmpty, !values.isEmpty, !values.contains(""),
                  !sweep.dimensions.contains(where: { $0.name == pair[0] }) else { return .failure(.malformed(text)) }
            sweep.dimensions.append(Dimension(name: String(pair[0]), values: values))
            let (product, overflow) = combinations.multipliedReportingOverflow(by: values.count)
            guard !overflow, product <= maxCombinations else { return .failure(.tooManyCombinations) }
            combinations = product
        }
        return .success(sweep)
    }

    public var isEmpty: Bool { dimensions.isEmpty }
    public var names: [String] { dimensions.map(\.name) }

    /// Every combination of values, the first dimension varying slowest.
    public var combinations: [[String]] {
        var out: [[String]] = [[]]
        for d in dimensions { out = out.flatMap { c in d.values.map { c + [$0] } } }
        return out
    }

    /// Whether a strategy varies under none of the swept names: it runs once, the baseline the
    /// swept columns are set against.
    public func isBaseline(for entry: StrategyEntry) -> Bool {
        !isEmpty && dimensions.allSatisfy { d in !SweepAxes.all.contains { $0.varies(d.name, under: entry) } }
    }

    /// Every combination of the values of the dimensions `entry` varies, the first slowest, ""
    /// for each dimension it does not: a strategy that has one swept option of two runs that
    /// option's values only, and one that has none runs once (one combination of ""s).
    public func combinations(for entry: StrategyEntry) -> [[String]] {
        var out: [[String]] = [[]]
        for d in dimensions {
            let varies = SweepAxes.all.contains { $0.varies(d.name, under: entry) }
            out = out.flatMap { c in (varies ? d.values : [""]).map { c + [$0] } }
        }
        return out
    }

    /// What a column with `values` (one per dimension; "" for one it does not vary) sets: each
    /// axis's overrides, in order.
    public func overrides(_ values: [String], under entry: StrategyEntry) -> [String] {
        zip(dimensions, values).filter { !$0.1.isEmpty }.flatMap { d, value in
            SweepAxes.all.first { $0.varies(d.name, under: entry) }.map { $0.setting(d.name, value) } ?? ["\(d.name)=\(value)"]
        }
    }
}
