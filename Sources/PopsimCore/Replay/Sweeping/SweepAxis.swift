/// Something a sweep can vary in a column. Adding one is a type conforming here (one file) and
/// its line in `SweepAxes.all`.
public protocol SweepAxis: SendableMetatype {
    /// Whether `name` is this axis's under `entry`.
    static func varies(_ name: String, under entry: StrategyEntry) -> Bool
    /// What a column with `name` at `value` adds to its strategy's settings (`option=value`).
    static func setting(_ name: String, _ value: String) -> [String]
}

/// Every axis a sweep can vary, tried in order.
public enum SweepAxes {
    public static let all: [any SweepAxis.Type] = [StrategyOptionAxis.self, ScopedCapAxis.self]
}
