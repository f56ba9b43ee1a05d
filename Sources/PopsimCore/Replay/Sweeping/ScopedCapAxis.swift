/// A daily cap on one scope, swept by its count: `--sweep dailyCap.campaign=1,2,3` (or
/// `dailyCap.key:promo=…`) runs the column with `caps=campaign:N/24h` — what a team asks ("what
/// if campaigns are capped at 2 a day?") without writing the caps' syntax. Under a strategy
/// with a `caps` option (`policy`).
public enum ScopedCapAxis: SweepAxis {
    static let prefix = "dailyCap."

    public static func varies(_ name: String, under entry: StrategyEntry) -> Bool {
        name.hasPrefix(prefix) && name.count > prefix.count && entry.option(named: "caps")?.kind == .caps
    }

    public static func setting(_ name: String, _ value: String) -> [String] {
        ["caps=\(name.dropFirst(prefix.count)):\(value)/24h"]
    }
}
