/// What `fit` searches: every built-in strategy with its options, and `policy` with its knobs
/// (scoped caps included), cut into **starts** that are searched independently of each other.
///
/// Why starts: a start's search depends on nothing outside it, so starts can run on any thread
/// and any shard (`--shard I/N` runs starts I, I+N, …) and the result of all of them is the same
/// bytes however they were split. A built-in strategy is one start; `policy` is one start per
/// value of `busy`, whose first pass is a grid of the knobs that decide most (`order`, `slots`,
/// `conditions`, and `busyFor` when `busy` is not `wait`).
///
/// Not searched: the animation times every strategy has (`showMs`, `hideMs`, `navMs`: the app's,
/// read from the catalog), plug-ins (`--strategy exec:…` is scored, not searched) and integers
/// off the scales below.
public struct FitSpace: Sendable {
    /// One option searched: its values, the default first.
    public struct Dimension: Sendable {
        public var name: String
        public var defaultValue: String
        public var values: [String]
        /// `caps`: searched by adding or removing one rule at a time (`values` are the rules).
        public var isCaps: Bool
    }

    public struct Start: Sendable {
        /// `fg`, `policy busy=preempt`; `--strategy S` for one only scored.
        public var label: String
        public var strategy: String
        /// The first pass: candidates scored before any refinement.
        public var coarse: [FitCandidate]
        public var dimensions: [Dimension]
        /// The strategy's option names, in order (how a candidate keeps its settings).
        public var order: [String]
        /// Scored only (a plug-in, a given candidate): no search.
        public var scoredOnly: Bool
        /// What one pass over it costs, in evaluations: how the budget is shared.
        public var weight: Int { coarse.count + dimensions.reduce(0) { $0 + $1.values.count - ($1.isCaps ? 0 : 1) } }
    }

    public let starts: [Start]

    /// Milliseconds: from nothing to a day.
    public static let millisecondScale = [0, 250, 500, 1000, 1500, 2000, 3000, 4000, 5000, 6000, 8000, 10_000, 15_000, 20_000, 30_000,
                                          60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000, 86_400_000]
    /// Counts: slots, caps, quotas.
    public static let countScale = [0, 1, 2, 3, 4, 5, 6, 8, 10, 20]
    /// The `policy` grid each `busy` start begins with.
    static let grid = ["order", "slots", "conditions"]
    static let gridSlots = ["1", "2", "3"]

    /// The space for `catalog` over `entries` (the built-ins), with `scored` (candidates given
    /// on the command line) as starts of their own after the searched ones.
    public init(catalog: Scenario, entries: [StrategyEntry] = StrategyRegistry.all, scored: [FitCandidate] = []) {
        var starts: [Start] = []
        for entry in entries {
            let dims = Self.dimensions(entry, catalog: catalog)
            let order = entry.options.map(\.name)
            let base = FitCandidate(strategy: entry.name)
            guard entry.name == PolicyStrategy.name, let busy = dims.first(where: { $0.name == "busy" }) else {
                // The defaults, then each choice option's other values one at a time.
                var coarse = [base]
                for d in dims where !d.isCaps && entry.option(named: d.name)?.isChoice == true {
                    coarse += d.values.dropFirst().map { base.with(d.name, $0, default: d.defaultValue, order: order) }
                }
                starts.append(Start(label: entry.name, strategy: entry.name, coarse: coarse, dimensions: dims, order: order, scoredOnly: false))
                continue
            }
            for value in busy.values {
                var coarse = [base.with("busy", value, default: busy.defaultValue, order: order)]
                // Which arrivals the busy rule is for decides as much as the rule (but not for `wait`).
                for name in Self.grid + (value == busy.defaultValue ? [] : ["busyFor"]) {
                    guard let d = dims.first(where: { $0.name == name }) else { continue }
                    let values = name == "slots" ? Self.gridSlots : d.values
                    coarse = coarse.flatMap { c in values.map { c.with(name, $0, default: d.defaultValue, order: order) } }
                }
                starts.append(Start(label: "\(entry.name) busy=\(value)", strategy: entry.name, coarse: coarse, dimensions: dims, order: order,
                                    scoredOnly: false))
            }
        }
        for c in scored {
            starts.append(Start(label: c.label, strategy: c.strategy, coarse: [c], dimensions: [], order: [], scoredOnly: true))
        }
        self.starts = starts
    }

    /// The options of `entry` searched, each over its values.
    static func dimensions(_ entry: StrategyEntry, catalog: Scenario) -> [Dimension] {
        entry.options.compactMap { spec in
            guard !OptionSpec.shared.contains(spec.name) else { return nil }
            let fallback = spec.defaultValue.description
            switch spec.kind {
            case .choice(let words):
                return Dimension(name: spec.name, defaultValue: fallback, values: [fallback] + words.filter { $0 != fallback }, isCaps: false)
            case .integer(let minimum):
                let scale = spec.name.hasSuffix("Ms") || spec.name == "duration" ? millisecondScale : countScale
                let values = Set(scale.filter { $0 >= minimum }.map(String.init) + [fallback])
                let sorted = values.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
                return Dimension(name: spec.name, defaultValue: fallback, values: [fallback] + sorted.filter { $0 != fallback }, isCaps: false)
            case .caps:
                return Dimension(name: spec.name, defaultValue: fallback, values: capRules(catalog), isCaps: true)
            }
        }
    }

    /// The scoped rules a `caps` search adds one at a time: for each popup, key and level of the
    /// catalog, a daily cap of 1, 2 or 3, an hourly cap of 1, a gap of 30 s or 5 min, a cooldown
    /// of 1 min.
    static func capRules(_ catalog: Scenario) -> [String] {
        var scopes = catalog.popups.map(\.name)
        var keys: [String] = [], levels: [String] = []
        for p in catalog.popups {
            if let k = p.key, !keys.contains(k) { keys.append(k) }
            if let l = p.level?.rawValue, !levels.contains(l) { levels.append(l) }
        }
        scopes += keys.map { "key:" + $0 } + levels.map { "level:" + $0 }
        return scopes.flatMap { s in ["\(s):1/24h", "\(s):2/24h", "\(s):3/24h", "\(s):1/1h", "\(s):gap=30s", "\(s):gap=5m", "\(s):cooldown=1m"] }
    }

    /// What a rule limits, so that a second rule of the same kind on a scope replaces it
    /// (`campaign:1/24h` and `campaign:2/24h`).
    static func ruleKind(_ rule: String) -> String {
        guard let colon = rule.lastIndex(of: ":") else { return rule }
        let body = rule[rule.index(after: colon)...]
        if let eq = body.firstIndex(of: "=") { return rule[..<colon] + ":" + body[..<eq] }
        if let slash = body.firstIndex(of: "/") { return rule[..<colon] + ":/" + body[body.index(after: slash)...] }
        return rule
    }
}

extension OptionSpec {
    var isChoice: Bool {
        if case .choice = kind { return true }
        return false
    }
}
