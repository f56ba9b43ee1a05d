import Dispatch
import PopsimCore
import PopsimReports

/// Runs scenarios against their expected timelines, on several cores, reporting in input order.
///
/// Contract: every scenario is loaded once and run under each expected strategy; the outcomes come
/// back in the order of `paths`, then of strategies, whatever the number of jobs, so the output is
/// the same bytes with `jobs` 1 or 16.
public struct CheckRunner: Sendable {
    public var only: String?
    public var overrides: [String]
    public var limits: RunLimits
    public var maxBytes: Int
    /// What the strategies' names mean (plug-ins, a policy file) and their goldens' names.
    public var strategies: StrategySet

    public init(only: String? = nil, overrides: [String] = [], limits: RunLimits = RunLimits(),
                maxBytes: Int = FileIO.defaultMaxBytes, strategies: StrategySet = .builtIn) {
        self.strategies = strategies
        self.only = only
        self.overrides = overrides
        self.limits = limits
        self.maxBytes = maxBytes
    }

    public func run(_ paths: [Expectations.Found], jobs: Int, progress: ProgressLine? = nil) -> [CheckOutcome] {
        let results = Slots<[CheckOutcome]>(count: paths.count)
        let workers = max(1, min(jobs, paths.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: paths.count, by: workers) {
                let done = results.set(i, check(paths[i]))
                progress?.update("check: \(done) of \(paths.count) scenarios")
            }
        }
        progress?.finish()
        return results.all.flatMap { $0 ?? [] }
    }

    /// Every outcome of one scenario.
    public func check(_ found: Expectations.Found) -> [CheckOutcome] {
        let path = found.path
        if found.notRegular {
            return [CheckOutcome(scenario: path, strategy: nil, goldenPath: nil, verdict: .skipped("not a regular file"))]
        }
        let scenario: Scenario
        do {
            scenario = try ScenarioSource.load(path, maxBytes: maxBytes)
        } catch {
            let verdict: CheckOutcome.Verdict = found.inFolder && Self.isNotAScenario(error)
                ? .skipped("not a popsim scenario: no \"popsim\" key") : .error(error)
            return [CheckOutcome(scenario: path, strategy: nil, goldenPath: nil, verdict: verdict)]
        }
        let strategies = Expectations.strategies(for: scenario, only: only)
        guard !strategies.isEmpty else {
            return [CheckOutcome(scenario: path, strategy: nil, goldenPath: nil,
                                 verdict: .error(.configuration(.noStrategy(file: path))))]
        }
        return strategies.map { check(scenario, strategy: $0) }
    }

    /// A JSON object without the `popsim` key at its top: some other JSON file in a folder.
    static func isNotAScenario(_ error: PopsimError) -> Bool {
        guard case .input(let errors) = error else { return false }
        return errors.errors.contains { $0.path == .root && $0.problem == .missingKey("popsim", what: "the format version, 1") }
    }

    func check(_ scenario: Scenario, strategy: String) -> CheckOutcome {
        let golden = ScenarioSource.goldenPath(for: scenario.file, strategy: strategies.goldenLabel(strategy))
        var outcome = CheckOutcome(scenario: scenario.file, strategy: strategy, goldenPath: golden, verdict: .pass)
        if strategy == ScenarioLoader.policyStrategy, let file = strategies.policyFile { outcome.recordArguments = " --policy " + file }
        let actual: String
        do {
            let result = try Pipeline.run(scenario, strategy: strategy, overrides: OptionOverride.parseAll(overrides), limits: limits,
                                          strategies: strategies)
            actual = TimelineText.render(result.timeline)
            outcome.brokenProperties = PropertyJudge.verdicts(result).filter { !$0.holds }
        } catch {
            outcome.verdict = .error(error)
            return outcome
        }
        outcome.actual = actual
        switch FileIO.kind(of: golden) {
        case .missing:
            // With `expect`, the properties are the check: no golden is needed.
            if scenario.expectations.isEmpty { outcome.verdict = .missing }
            return outcome
        case .regular:
            break
        case .directory, .linkToDirectory, .other:
            outcome.verdict = .error(.io(path: golden, reason: "cannot read: not a regular file"))
            return outcome
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(golden)
        } catch {
            outcome.verdict = .error(.io(path: golden, reason: error.reason))
            return outcome
        }
        let expected = String(decoding: bytes, as: UTF8.self)
        if expected != actual {
            outcome.verdict = .differs(diff: UnifiedDiff.diff(expected: expected, actual: actual,
                                                              expectedName: "expected: \(golden)",
                                                              actualName: "actual: \(scenario.file) [\(strategy)]"))
        }
        return outcome
    }
}
