/// Runs a scenario's variants under a strategy and judges its `expect` in each: how many variants
/// break each property, and for a broken one its smallest counterexample.
///
/// Contract: variants run in plan order; a property's counterexample is the first variant (in
/// that order) that breaks it, shrunk toward the nominal script while it still breaks it (every
/// maybe-event back in, each batch back toward file order one swap at a time, each instant back
/// to its window's start, else to its end). Deterministic: no clock, no hash order.
public struct Explorer: Sendable {
    public let scenario: Scenario
    public let space: VariantSpace
    public let limits: RunLimits
    /// What the strategies' names mean (plug-ins, a policy file).
    public let strategies: StrategySet

    public init(_ scenario: Scenario, limits: RunLimits = RunLimits(), strategies: StrategySet = .builtIn) {
        self.scenario = scenario
        space = VariantSpace(scenario)
        self.limits = limits
        self.strategies = strategies
    }

    /// What exploring under one strategy found.
    public struct Outcome: Sendable {
        public var strategy: String
        public var variantsRun: Int
        /// Whether it was stopped before every variant of the plan was run (not shrunk then).
        public var stopped = false
        /// Per `expect` entry: how many variants broke it, and its shrunk counterexample.
        public var properties: [PropertyOutcome]
    }

    public struct PropertyOutcome: Sendable {
        public var expectation: Expectation
        public var failures: Int
        /// The plan index of the first variant that broke it.
        public var first: Int?
        public var counterexample: Counterexample?
    }

    /// A variant that breaks a property, with what broke it.
    public struct Counterexample: Sendable {
        public var variant: Variant
        /// What it changes from the nominal script (`describe`).
        public var changes: [VariantChange]
        public var failure: PropertyVerdict.Failure
        /// Its timeline's entries at the failing instant (the reports write them as lines).
        public var moment: Timeline
    }

    /// How many variants of a part of the plan broke each property, and the first (by plan index)
    /// that did: parts judged apart (on several cores) merge into the tally of the whole.
    public struct Tally: Sendable {
        public var failures: [Int]
        public var first: [Int?]
        /// Variants judged.
        public var judged = 0
        /// Whether it was stopped before every variant asked for was judged.
        public var stopped = false

        public init(properties: Int) {
            failures = Array(repeating: 0, count: properties)
            first = Array(repeating: nil, count: properties)
        }

        public mutating func merge(_ other: Tally) {
            judged += other.judged
            stopped = stopped || other.stopped
            for i in failures.indices {
                failures[i] += other.failures[i]
                if let f = other.first[i] { first[i] = min(first[i] ?? f, f) }
            }
        }
    }

    /// Judges the variants of `plan` at `indices` under `strategy`. `progress`, if given, hears
    /// every `progressEvery` variants (and at the end) how many more were judged and how many of
    /// them broke a property (the core reads no clock: the caller decides what to show).
    /// `shouldStop`, asked before each variant, ends the part early (`Tally.stopped`).
    public func judge(_ plan: Plan, _ indices: some Sequence<Int>, strategy: String, overrides: [OptionOverride] = [],
                      progressEvery: Int = 256, shouldStop: (@Sendable () -> Bool)? = nil,
                      progress: (@Sendable (_ judged: Int, _ failed: Int) -> Void)? = nil) throws(PopsimError) -> Tally {
        let expectations = scenario.expectations
        var tally = Tally(properties: expectations.count)
        var judged = 0, failed = 0
        for index in indices {
            if let shouldStop, shouldStop() {
                tally.stopped = true
                break
            }
            let result = try run(plan[index], strategy: strategy, overrides: overrides)
            tally.judged += 1
            var broke = false
            for (i, e) in expectations.enumerated() where PropertyJudge.judge(e.property, result) != nil {
                tally.failures[i] += 1
                broke = true
                if tally.first[i] == nil { tally.first[i] = index }
            }
            judged += 1
            if broke { failed += 1 }
            if judged >= progressEvery, let progress {
                progress(judged, failed)
                judged = 0
                failed = 0
            }
        }
        if judged > 0 { progress?(judged, failed) }
        return tally
    }

    /// The outcome of a whole plan's tally: each broken property's first variant, shrunk — not
    /// shrunk when the tally was stopped early (no more runs than one per broken property). The
    /// broken properties share `maxShrinkRuns` (in `expect`'s order): 70 broken properties of a
    /// 150-popup batch took 2,000 runs each, and `--strategy all` minutes (issue 41); past the
    /// budget a counterexample is the first failing variant as it was found.
    public func outcome(_ tally: Tally, plan: Plan, strategy: String, overrides: [OptionOverride] = []) throws(PopsimError) -> Outcome {
        var properties: [PropertyOutcome] = []
        var shrinkRuns = Self.maxShrinkRuns
        for (i, e) in scenario.expectations.enumerated() {
            var counterexample: Counterexample?
            if let index = tally.first[i] {
                let small = tally.stopped || shrinkRuns <= 0 ? plan[index]
                    : try shrink(plan[index], breaking: e.property, strategy: strategy, overrides: overrides, runs: &shrinkRuns)
                let result = try run(small, strategy: strategy, overrides: overrides)
                if let failure = PropertyJudge.judge(e.property, result) {
                    var moment = result.timeline
                    moment.entries = result.timeline.entries.filter { $0.t == failure.at }
                    counterexample = Counterexample(variant: small, changes: describe(small), failure: failure, moment: moment)
                }
            }
            properties.append(PropertyOutcome(expectation: e, failures: tally.failures[i], first: tally.first[i],
                                              counterexample: counterexample))
        }
        return Outcome(strategy: strategy, variantsRun: tally.judged, stopped: tally.stopped, properties: properties)
    }

    func run(_ v: Variant, strategy: String, overrides: [OptionOverride]) throws(PopsimError) -> RunResult {
        try Pipeline.run(scenario.applying(v), strategy: strategy, overrides: overrides, limits: limits, strategies: strategies)
    }

    /// Moves `v` toward the nominal variant, one change at a time, keeping each change after
    /// which the property still breaks, until no change keeps it broken.
    /// `runs`: what the outcome's shrinks may still run (taken from it).
    func shrink(_ v: Variant, breaking property: Property, strategy: String, overrides: [OptionOverride],
                runs: inout Int) throws(PopsimError) -> Variant {
        var current = v
        func breaks(_ candidate: Variant) throws(PopsimError) -> Bool {
            PropertyJudge.judge(property, try run(candidate, strategy: strategy, overrides: overrides)) != nil
        }
        var changed = true
        while changed && runs > 0 {
            changed = false
            for candidate in steps(from: current) {
                runs -= 1
                if try breaks(candidate) {
                    current = candidate
                    changed = true
                    break
                }
                if runs <= 0 { break }
            }
        }
        return current
    }

    /// A shrink, alone (tests).
    func shrink(_ v: Variant, breaking property: Property, strategy: String, overrides: [OptionOverride]) throws(PopsimError) -> Variant {
        var runs = Self.maxShrinkRuns
        return try shrink(v, breaking: property, strategy: strategy, overrides: overrides, runs: &runs)
    }

    /// Runs the shrinks of one strategy's outcome may take in all: a batch of thousands in
    /// reverse order would otherwise take millions of one-swap steps, and many broken properties
    /// each their own; past it a counterexample is smaller, if not smallest.
    public static let maxShrinkRuns = 1_000

    /// The variants one step nearer the nominal one than `v`: a maybe-event back in, a batch
    /// back in file order at once (else one swap at a time), an instant back to its window's start
    /// (else its end).
    func steps(from v: Variant) -> [Variant] {
        var out: [Variant] = []
        for (k, u) in space.uncertainties.enumerated() {
            if !v.present[k] {
                var c = v
                c.present[k] = true
                out.append(c)
            }
            let order = v.orders[k]
            if order != Array(order.indices) {
                var c = v
                c.orders[k] = Array(order.indices)
                out.append(c)
            }
            for i in order.indices.dropLast() where order[i] > order[i + 1] {
                var c = v
                c.orders[k].swapAt(i, i + 1)
                out.append(c)
            }
            if let w = u.window, v.times[k] != w.lowerBound {
                var c = v
                c.times[k] = w.lowerBound
                out.append(c)
                if v.times[k] != w.upperBound {
                    c.times[k] = w.upperBound
                    out.append(c)
                }
            }
        }
        return out
    }

    /// What `v` changes from the nominal script (worded by the reports: `shareGuide arrives at
    /// 1200 instead of 0`, `[resultRejected, shareGuide] arrive as shareGuide, resultRejected`).
    public func describe(_ v: Variant) -> [VariantChange] {
        var out: [VariantChange] = []
        for (k, u) in space.uncertainties.enumerated() {
            guard let event = scenario.events.first(where: { $0.index == u.event }) else { continue }
            let what = subject(of: event)
            if !v.present[k] {
                out.append(VariantChange(subject: what, kind: .absent))
                continue
            }
            if let w = u.window, v.times[k] != w.lowerBound {
                out.append(VariantChange(subject: what, kind: .moved(to: v.times[k], from: w.lowerBound)))
            }
            if u.batch != nil, v.orders[k] != Array(v.orders[k].indices), case .enqueueMany(let list) = event.action {
                out.append(VariantChange(subject: what, kind: .reordered(v.orders[k].map { scenario.name(of: list[$0]) })))
            }
        }
        return out
    }

    func subject(of event: ScenarioEvent) -> VariantChange.Subject {
        switch event.action {
        case .enqueue(let p): return .popup(scenario.name(of: p))
        case .enqueueMany(let list): return .batch(list.map { scenario.name(of: $0) })
        default: return .event(index: event.index, keyword: event.action.kind.keyword)
        }
    }
}
