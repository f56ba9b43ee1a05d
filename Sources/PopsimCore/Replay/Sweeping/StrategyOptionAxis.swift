/// A strategy's option (a policy's knob included): the column runs with it set to the value.
public enum StrategyOptionAxis: SweepAxis {
    public static func varies(_ name: String, under entry: StrategyEntry) -> Bool { entry.option(named: name) != nil }
    public static func setting(_ name: String, _ value: String) -> [String] { ["\(name)=\(value)"] }
}
