import PopsimCore

/// Reading shards' JSON reports back and merging them (`explore --merge`).
extension ExploreReport {
    /// Why reports cannot be merged.
    public struct MergeError: Error, Sendable, Equatable {
        public var reason: String
    }

    /// The report written by `json()`, or nil when `root` is not one.
    public init?(json root: JSONValue) {
        guard let o = Self.object(root), let file = Self.string(o["explore"]), let possible = Self.count(o["possible"]),
              let run = Self.count(o["run"]), case .bool(let exhaustive)? = o["exhaustive"]?.kind,
              let seed = Self.int(o["seed"]), case .array(let list)? = o["strategies"]?.kind else { return nil }
        var strategies: [Strategy] = []
        for item in list {
            guard let s = Self.object(item), let name = Self.string(s["strategy"]), let variants = Self.count(s["variants"]),
                  case .array(let props)? = s["properties"]?.kind else { return nil }
            var properties: [PropertyResult] = []
            for p in props {
                // Counts are never negative: a forged `"failures": -N` would cancel a shard's real ones.
                guard let po = Self.object(p), let text = Self.string(po["property"]), let failures = Self.count(po["failures"]),
                      failures <= variants, Self.int(po["first"]).map({ $0 >= 0 }) ?? true else { return nil }
                var counterexample: Counterexample?
                if let c = po["counterexample"].flatMap(Self.object) {
                    guard let at = Self.int(c["at"]), let evidence = Self.string(c["evidence"]),
                          let changes = Self.strings(c["changes"]), let lines = Self.strings(c["lines"]) else { return nil }
                    counterexample = Counterexample(changes: changes, at: at, evidence: evidence, lines: lines)
                }
                properties.append(PropertyResult(text: text, failures: failures, first: Self.int(po["first"]), counterexample: counterexample))
            }
            strategies.append(Strategy(name: name, variants: variants, properties: properties))
        }
        self.init(file: file, possible: possible, run: run, exhaustive: exhaustive, seed: UInt64(max(0, seed)),
                  shard: Self.string(o["shard"]), strategies: strategies)
        incomplete = Self.string(o["incomplete"])
        exploration = Self.string(o["exploration"])
        if let budget = Self.count(o["budget"]), let from = Self.count(o["defaultBudget"]), budget < from { lowered = Lowered(budget: budget, from: from) }
    }

    /// The shards of one exploration as its unsharded report: counts add up; each property's
    /// counterexample is the one of the shard that met its first failing variant earliest.
    public static func merging(_ shards: [ExploreReport]) throws(MergeError) -> ExploreReport {
        guard var merged = shards.first else { throw MergeError(reason: "no report") }
        // Shard numbers as popsim writes them (`0/2`, never `00/2`): every I from 0 to N-1 once.
        guard case .success = Shard.checkMerge(shards.map { $0.shard.flatMap(Shard.written) }) else {
            throw MergeError(reason: "expected the reports of every shard I/N of one exploration, each once")
        }
        guard let identity = merged.exploration, shards.allSatisfy({ $0.exploration == identity }) else {
            throw MergeError(reason: shards.contains { $0.exploration == nil }
                ? "a report does not say which exploration it is part of (made by an older popsim): run its shard again"
                : "the reports come from different explorations (the scenario, a strategy or its options, the policy, the budget or the seed differ)")
        }
        if let cut = shards.first(where: { $0.incomplete != nil }) {
            throw MergeError(reason: "the report of shard \(cut.shard ?? "?") is incomplete (\(cut.incomplete ?? "")): run that shard again")
        }
        for other in shards.dropFirst() {
            guard other.file == merged.file, other.possible == merged.possible, other.exhaustive == merged.exhaustive,
                  other.seed == merged.seed, other.strategies.map(\.name) == merged.strategies.map(\.name),
                  zip(other.strategies, merged.strategies).allSatisfy({ $0.properties.map(\.text) == $1.properties.map(\.text) })
            else { throw MergeError(reason: "the reports come from different explorations") }
            merged.run = merged.run.plus(other.run)
            for s in merged.strategies.indices {
                merged.strategies[s].variants = merged.strategies[s].variants.plus(other.strategies[s].variants)
                for p in merged.strategies[s].properties.indices {
                    let theirs = other.strategies[s].properties[p]
                    merged.strategies[s].properties[p].failures = merged.strategies[s].properties[p].failures.plus(theirs.failures)
                    if let f = theirs.first, f < (merged.strategies[s].properties[p].first ?? Int.max) {
                        merged.strategies[s].properties[p].first = f
                        merged.strategies[s].properties[p].counterexample = theirs.counterexample
                    }
                }
            }
        }
        merged.shard = nil
        return merged
    }

    static func object(_ v: JSONValue?) -> [String: JSONValue]? {
        guard case .object(let members)? = v?.kind else { return nil }
        var out: [String: JSONValue] = [:]
        for m in members { out[m.key] = m.value }
        return out
    }

    static func string(_ v: JSONValue?) -> String? {
        if case .string(let s)? = v?.kind { return s }
        return nil
    }

    static func int(_ v: JSONValue?) -> Int? {
        if case .number(let n)? = v?.kind { return n.integer }
        return nil
    }

    /// An integer that counts something: 0 or more.
    static func count(_ v: JSONValue?) -> Int? { int(v).flatMap { $0 >= 0 ? $0 : nil } }

    static func strings(_ v: JSONValue?) -> [String]? {
        guard case .array(let items)? = v?.kind else { return nil }
        let out = items.compactMap(string)
        return out.count == items.count ? out : nil
    }
}
