import PopsimCore

/// What `explore` found in one scenario: its variants, and per strategy each property's verdict.
///
/// Plain values (no runs inside), so that the JSON reports of shards (`--shard I/N`) can be read
/// back and merged (`--merge`) into exactly the report of the unsharded run: failures add up, and
/// a property's counterexample is the one shrunk from the failing variant earliest in the plan
/// (`first`), which is the same in the shard that ran it as in the unsharded run.
public struct ExploreReport: Sendable, Equatable {
    public var file: String
    /// Variants the scenario has (saturating at `Int.max`), and how many were run.
    public var possible: Int
    public var run: Int
    public var exhaustive: Bool
    public var seed: UInt64
    /// `I/N` for a shard's report, nil for a whole run (or a merge).
    public var shard: String?
    public var strategies: [Strategy]
    /// What makes the exploration the one it is — the scenario's bytes, each strategy with its
    /// resolved options, the policy file's bytes, the budget, the seed and the plan — as a
    /// SHA-256 digest: `--merge` refuses shards whose digests differ (issue 30).
    public var exploration: String?
    /// Why the exploration stopped before every variant was run (`timed out after 600 s`,
    /// `stopped by SIGINT`); nil when it ran them all. Its verdicts cover the variants run.
    public var incomplete: String?
    /// The default budget lowered for this scenario (`ExploreBudget`): the variants a strategy
    /// runs, and what it would have been; nil when `--budget` was given or nothing was lowered.
    public var lowered: Lowered?

    public struct Lowered: Sendable, Equatable {
        public var budget: Int
        public var from: Int
        public init(budget: Int, from: Int) {
            self.budget = budget
            self.from = from
        }
    }

    public struct Strategy: Sendable, Equatable {
        public var name: String
        public var variants: Int
        public var properties: [PropertyResult]
    }

    public struct PropertyResult: Sendable, Equatable {
        public var text: String
        public var failures: Int
        /// The plan index of the first variant that broke it.
        public var first: Int?
        public var counterexample: Counterexample?
    }

    public struct Counterexample: Sendable, Equatable {
        public var changes: [String]
        public var at: Int
        public var evidence: String
        public var lines: [String]
    }

    public init(file: String, possible: Int, run: Int, exhaustive: Bool, seed: UInt64, shard: String? = nil,
                strategies: [Strategy]) {
        self.file = file
        self.possible = possible
        self.run = run
        self.exhaustive = exhaustive
        self.seed = seed
        self.shard = shard
        self.strategies = strategies
    }

    /// From the explorer's outcomes.
    public init(file: String, possible: Int, run: Int, exhaustive: Bool, seed: UInt64, shard: String? = nil,
                outcomes: [Explorer.Outcome]) {
        self.init(file: file, possible: possible, run: run, exhaustive: exhaustive, seed: seed, shard: shard,
                  strategies: outcomes.map { o in
                      Strategy(name: o.strategy, variants: o.variantsRun, properties: o.properties.map { p in
                          PropertyResult(text: p.expectation.text, failures: p.failures, first: p.first,
                                         counterexample: p.counterexample.map {
                                             Counterexample(changes: $0.changes.map(EvidenceText.text), at: $0.failure.at, evidence: $0.failure.text,
                                                            lines: TimelineText.render($0.moment).split(separator: "\n").map(String.init))
                                         })
                      })
                  })
    }

    /// Whether any property broke in any variant.
    public var anyFailure: Bool { strategies.contains { $0.properties.contains { $0.failures > 0 } } }

    /// The text report: the coverage, then per strategy each property, a failure with its
    /// smallest counterexample and the timeline lines that break it.
    public func text() -> String {
        let possibleText = possible == Int.max ? "at least \(Int.max)" : "\(possible)"
        var out = "\(TerminalText.safe(file)): \(run) variant\(run == 1 ? "" : "s") of \(possibleText) "
            + (exhaustive ? "(exhaustive" : "(sampled, seed \(seed); both ends of every window")
            + (shard.map { "; shard \($0)" } ?? "") + ")\n"
        if let lowered {
            out += "budget: \(lowered.budget) variants a strategy, not the default \(lowered.from): this scenario's runs are long "
                + "(the default keeps an exploration to a few seconds); --budget \(lowered.from) asks for them all\n"
        }
        if let incomplete {
            out += "INCOMPLETE: \(incomplete); the verdicts below cover the variants run\n"
        }
        for s in strategies {
            out += "\n\(s.name)\n"
            for p in s.properties {
                let text = TerminalText.safe(p.text)
                guard p.failures > 0 else {
                    out += "  holds  \(text) (in all \(s.variants))\n"
                    continue
                }
                out += "  fails  \(text) (in \(p.failures) of \(s.variants))\n"
                guard let c = p.counterexample else { continue }
                let changes = c.changes.isEmpty ? "the nominal script" : c.changes.joined(separator: "; ")
                out += "    \(incomplete == nil ? "smallest counterexample" : "first counterexample (not shrunk)"): \(TerminalText.safe(changes))\n"
                out += "    at \(c.at) ms: \(TerminalText.safe(c.evidence))\n"
                for line in c.lines { out += "      \(TerminalText.safe(line))\n" }
            }
        }
        let failing = strategies.flatMap(\.properties).filter { $0.failures > 0 }.count
        let total = strategies.flatMap(\.properties).count
        out += "\n\(total - failing) held, \(failing) failed (properties × strategies)" + (incomplete == nil ? "" : "; incomplete") + "\n"
        return out
    }

    /// The JSON report, in a fixed key order.
    public func json() -> String {
        var out = JSONObjectWriter()
        out.add("popsim", 1)
        out.add("explore", file)
        out.add("possible", possible)
        out.add("run", run)
        out.add("exhaustive", exhaustive)
        out.add("seed", json: String(seed))
        if let exploration { out.add("exploration", exploration) }
        if let shard { out.add("shard", shard) }
        if let incomplete { out.add("incomplete", incomplete) }
        if let lowered {
            out.add("budget", lowered.budget)
            out.add("defaultBudget", lowered.from)
        }
        let items = strategies.map { st in
            var strategy = JSONObjectWriter()
            strategy.add("strategy", st.name)
            strategy.add("variants", st.variants)
            strategy.add("properties", json: "[" + st.properties.map { "\n    " + Self.json($0) }.joined(separator: ",") + "]")
            return strategy.closed
        }
        out.add("strategies", json: items.isEmpty ? "[\n]" : JSONObjectWriter.lines(items, indent: "  ", closing: ""))
        return out.closed + "\n"
    }

    static func json(_ p: PropertyResult) -> String {
        var out = JSONObjectWriter()
        out.add("property", p.text)
        out.add("failures", p.failures)
        out.add("first", p.first)
        if let c = p.counterexample {
            var counterexample = JSONObjectWriter()
            counterexample.add("changes", strings: c.changes)
            counterexample.add("at", c.at)
            counterexample.add("evidence", c.evidence)
            counterexample.add("lines", strings: c.lines)
            out.add("counterexample", json: counterexample.closed)
        }
        return out.closed
    }
}
