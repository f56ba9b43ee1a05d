import PopsimCore

/// What `explore` found in one scenario: its variants, and per strategy each property's verdict.
public struct ExploreReport: Sendable {
    public var file: String
    /// Variants the scenario has (saturating at `Int.max`), and how many were run.
    public var possible: Int
    public var run: Int
    public var exhaustive: Bool
    public var seed: UInt64
    public var outcomes: [Explorer.Outcome]

    public init(file: String, possible: Int, run: Int, exhaustive: Bool, seed: UInt64, outcomes: [Explorer.Outcome]) {
        self.file = file
        self.possible = possible
        self.run = run
        self.exhaustive = exhaustive
        self.seed = seed
        self.outcomes = outcomes
    }

    /// Whether any property broke in any variant.
    public var anyFailure: Bool { outcomes.contains { $0.properties.contains { $0.failures > 0 } } }

    /// The text report: the coverage, then per strategy each property, a failure with its
    /// smallest counterexample and the timeline lines that break it.
    public func text() -> String {
        let possibleText = possible == Int.max ? "more than \(Int.max)" : "\(possible)"
        var out = "\(TerminalText.safe(file)): \(run) variant\(run == 1 ? "" : "s") of \(possibleText) "
            + (exhaustive ? "(exhaustive)" : "(sampled, seed \(seed); both ends of every window)") + "\n"
        for o in outcomes {
            out += "\n\(o.strategy)\n"
            for p in o.properties {
                let text = TerminalText.safe(p.expectation.text)
                guard p.failures > 0 else {
                    out += "  holds  \(text) (in all \(o.variantsRun))\n"
                    continue
                }
                out += "  fails  \(text) (in \(p.failures) of \(o.variantsRun))\n"
                guard let c = p.counterexample else { continue }
                let changes = c.changes.isEmpty ? "the nominal script" : c.changes.joined(separator: "; ")
                out += "    smallest counterexample: \(TerminalText.safe(changes))\n"
                out += "    at \(c.failure.at) ms: \(TerminalText.safe(c.failure.evidence))\n"
                for line in c.lines { out += "      \(TerminalText.safe(line))\n" }
            }
        }
        let failing = outcomes.flatMap(\.properties).filter { $0.failures > 0 }.count
        let total = outcomes.flatMap(\.properties).count
        out += "\n\(total - failing) held, \(failing) failed (properties × strategies)\n"
        return out
    }

    /// The JSON report, in a fixed key order.
    public func json() -> String {
        let s = JSONRenderer.string
        var out = "{\"popsim\": 1, \"explore\": \(s(file)), \"possible\": \(possible), \"run\": \(run), "
            + "\"exhaustive\": \(exhaustive), \"seed\": \(seed), \"strategies\": ["
        out += outcomes.map { o in
            "\n  {\"strategy\": \(s(o.strategy)), \"variants\": \(o.variantsRun), \"properties\": ["
                + o.properties.map { p in
                    var item = "\n    {\"property\": \(s(p.expectation.text)), \"failures\": \(p.failures)"
                    if let c = p.counterexample {
                        item += ", \"counterexample\": {\"changes\": [\(c.changes.map(s).joined(separator: ", "))], "
                            + "\"at\": \(c.failure.at), \"evidence\": \(s(c.failure.evidence)), "
                            + "\"lines\": [\(c.lines.map(s).joined(separator: ", "))]}"
                    }
                    return item + "}"
                }.joined(separator: ",") + "]}"
        }.joined(separator: ",")
        return out + "\n]}\n"
    }
}
