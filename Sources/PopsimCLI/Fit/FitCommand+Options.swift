import PopsimCore
import PopsimReports

/// `fit`'s options read: the candidates scored, the strategies searched, the seed, the holdout.
extension FitCommand {
    /// `--strategy S` (repeatable): candidates scored on the same split, not searched (a
    /// plug-in, or a strategy with options as `name:option=value,…`).
    static func scoredCandidates(_ args: Arguments, catalog: Scenario, strategies: StrategySet) throws(PopsimError) -> [FitCandidate] {
        var out: [FitCandidate] = []
        for spec in args.all("strategy") {
            let (name, own) = try CompareCommand.parse(spec)
            var settings: [FitCandidate.Setting] = []
            for text in own {
                guard let o = OptionOverride.parse(text) else {
                    throw PopsimError.usage("fit: --strategy \(spec): expected option=value, got \(JSONValue.quoted(text))")
                }
                settings.append(FitCandidate.Setting(name: o.name, value: o.value))
            }
            _ = try RunConfiguration.resolve(catalog, strategy: name, texts: own, strategies: strategies, usage: "fit: --strategy \(spec)")
            out.append(FitCandidate(strategy: name, settings: settings))
        }
        return out
    }

    /// The strategies candidates run under: the built-ins at their defaults and the plug-ins of
    /// `--strategy`; not a policy file's rules (the catalog's `policy`), which would be defaults
    /// the fitted catalog does not carry.
    static func modelStrategies(_ set: StrategySet) -> StrategySet {
        var out = set
        out.extra.removeAll { !$0.name.hasPrefix(StrategySet.execPrefix) }
        return out
    }

    /// `--search NAME` (repeatable): the built-in strategies searched (all of them by default);
    /// with a what-if (`--sweep`), only those that have every swept option, so that the fitted
    /// model answers it. None: exit 2, naming those that do.
    static func searched(_ args: Arguments, sweep: Sweep) throws(PopsimError) -> [StrategyEntry] {
        let names = args.all("search")
        for name in names where StrategyRegistry.entry(named: name) == nil {
            throw PopsimError.usage("fit: --search: no built-in strategy \(JSONValue.quoted(name))"
                                    + (Suggestion.closest(name, among: StrategyRegistry.names).map { " (did you mean \(JSONValue.quoted($0))?)" } ?? "")
                                    + "; a plug-in is scored with --strategy exec:PATH, not searched")
        }
        let asked = names.isEmpty ? StrategyRegistry.all : StrategyRegistry.all.filter { names.contains($0.name) }
        func answers(_ e: StrategyEntry) -> Bool { sweep.dimensions.allSatisfy { d in SweepAxes.all.contains { $0.varies(d.name, under: e) } } }
        let kept = asked.filter(answers)
        guard kept.isEmpty else { return kept }
        let able = StrategyRegistry.all.filter(answers).map(\.name)
        throw PopsimError.usage("fit: --sweep \(sweep.names.joined(separator: ", ")): no strategy searched has "
                                + (sweep.names.count == 1 ? "that option" : "all of those options")
                                + (able.isEmpty ? " (none has: check the names with 'popsim strategies')" : " (\(able.joined(separator: ", ")) "
                                    + (able.count == 1 ? "has" : "have") + (names.isEmpty ? ")" : ": --search \(able[0])?)")))
    }

    static func seedOption(_ args: Arguments) throws(PopsimError) -> UInt64 {
        guard let text = args.value("seed") else { return defaultSeed }
        guard let n = UInt64(text) else { throw PopsimError.usage("fit: --seed: expected an integer from 0 to \(UInt64.max), got \(JSONValue.quoted(text))") }
        return n
    }

    /// `--holdout F`: the share of users held back, from 0 to 0.9, as given and as a number.
    static func holdoutOption(_ args: Arguments) throws(PopsimError) -> (Double, String) {
        let text = args.value("holdout") ?? defaultHoldout
        guard let f = Double(text), f >= 0, f <= 0.9, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
            throw PopsimError.usage("fit: --holdout: expected a share of users from 0 to 0.9, like 0.3, got \(JSONValue.quoted(text))")
        }
        return (f, text)
    }
}
