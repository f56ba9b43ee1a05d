/// Caps and pacing on one scope, swept by their value — what a team asks ("what if campaigns are
/// capped at 2 a day?", "…at most one every 30 s?") without writing the rules' syntax, under a
/// strategy with a `caps` option (`policy`):
/// - `--sweep dailyCap.campaign=1,2,3`: the column adds `caps+=campaign:N/24h`;
/// - `--sweep cap.campaign/1h=1,2`: a rate window, `caps+=campaign:N/1h`;
/// - `--sweep gap.campaign=10s,30s`: `caps+=campaign:gap=…`;
/// - `--sweep cooldown.key:promo=1m,5m`: `caps+=key:promo:cooldown=…`.
/// Each joins the strategy's own caps (a rule of the same scope and kind replaced), and two swept
/// scopes join each other.
public enum ScopedCapAxis: SweepAxis {
    /// Each swept name's prefix and the rule it writes for a scope and a value.
    static let rules: [(prefix: String, rule: @Sendable (String, String) -> String)] = [
        ("dailyCap.", { "\($0):\($1)/24h" }),
        // SCOPE/WINDOW: the scope may hold a `/` of its own only before the window's.
        ("cap.", { scope, n in
            guard let slash = scope.lastIndex(of: "/") else { return "\(scope):\(n)" }
            return "\(scope[..<slash]):\(n)/\(scope[scope.index(after: slash)...])"
        }),
        ("gap.", { "\($0):gap=\($1)" }),
        ("cooldown.", { "\($0):cooldown=\($1)" }),
    ]

    public static func varies(_ name: String, under entry: StrategyEntry) -> Bool {
        rule(for: name) != nil && entry.option(named: "caps")?.kind == .caps
    }

    public static func setting(_ name: String, _ value: String) -> [String] {
        guard let (prefix, rule) = rule(for: name) else { return [] }
        return ["caps+=" + rule(String(name.dropFirst(prefix.count)), value)]
    }

    static func rule(for name: String) -> (prefix: String, rule: @Sendable (String, String) -> String)? {
        rules.first { name.hasPrefix($0.prefix) && name.count > $0.prefix.count }
    }
}
