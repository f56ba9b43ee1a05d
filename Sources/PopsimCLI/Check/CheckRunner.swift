import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// Runs scenarios against their expected timelines, on several cores, reporting in input order.
///
/// Contract: every scenario is loaded once and run under each expected strategy; the outcomes come
/// back in the order of `paths`, then of strategies, whatever the number of jobs, so the output is
/// the same bytes with `jobs` 1 or 16.
public struct CheckRunner: Sendable {
    /// `--strategy`, each repeatable: only these strategies, golden or not.
    public var only: [String]
    public var overrides: [String]
    public var limits: RunLimits
    public var maxBytes: Int
    /// What the strategies' names mean (plug-ins, a policy file) and their goldens' names.
    public var strategies: StrategySet
    /// Project files, plug-ins and policy files met while checking, each read once.
    let shared: Shared

    public init(only: [String] = [], overrides: [String] = [], limits: RunLimits = RunLimits(),
                maxBytes: Int = FileIO.defaultMaxBytes, strategies: StrategySet = .builtIn) {
        self.strategies = strategies
        self.only = only
        self.overrides = overrides
        self.limits = limits
        self.maxBytes = maxBytes
        shared = Shared(maxBytes: maxBytes)
    }

    /// Every outcome of `paths`, in their order; after a stop request (StopRequest) the scenarios
    /// not yet begun are left out.
    public func run(_ paths: [Expectations.Found], jobs: Int, progress: ProgressLine? = nil) -> [CheckOutcome] {
        let results = Slots<[CheckOutcome]>(count: paths.count)
        let workers = max(1, min(jobs, paths.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: paths.count, by: workers) where StopRequest.requested == nil {
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
        var set = strategies
        do {
            scenario = try ScenarioSource.load(path, maxBytes: maxBytes, strategies: &set)
        } catch {
            let verdict: CheckOutcome.Verdict = found.inFolder && Self.isNotAScenario(error)
                ? .skipped("not a popsim scenario: no \"popsim\" key") : .error(error)
            return [CheckOutcome(scenario: path, strategy: nil, goldenPath: nil, verdict: verdict)]
        }
        let targets = Expectations.targets(for: scenario, only: only, strategies: set) { shared.projects.project(for: path) }
        guard !targets.isEmpty else {
            return [CheckOutcome(scenario: path, strategy: nil, goldenPath: nil,
                                 verdict: .error(.configuration(.noStrategy(file: path))))]
        }
        return targets.map { target in
            let started = System.monotonicMs()
            var outcome = check(scenario, target: target, strategies: set)
            outcome.elapsedMs = System.monotonicMs() - started
            return outcome
        }
    }

    /// A JSON object without the `popsim` key at its top: some other JSON file in a folder.
    static func isNotAScenario(_ error: PopsimError) -> Bool {
        guard case .input(let errors) = error else { return false }
        return errors.errors.contains { $0.path == .root && $0.problem == .missingKey("popsim", what: "the format version, 1") }
    }

    /// The strategy to run for `target`, in the set that knows it.
    func check(_ scenario: Scenario, target: CheckTarget, strategies set: StrategySet) -> CheckOutcome {
        var outcome = produce(scenario, target: target, strategies: set)
        outcome.label = target.label
        return outcome
    }

    /// The outcome of `target`, labelled by the caller.
    private func produce(_ scenario: Scenario, target: CheckTarget, strategies set: StrategySet) -> CheckOutcome {
        let golden = ScenarioSource.goldenPath(for: scenario.file, strategy: target.label)
        var set = set
        let strategy: String
        var recordArguments = ""
        switch target.producer {
        case .strategy(let name):
            strategy = name
            recordArguments = set.entry(named: name)?.arguments ?? ""
        case .registry(let name):
            strategy = name
            set = set.registryOnly(name)
        case .projectPlugin(let path):
            strategy = StrategySet.execPrefix + path
            switch shared.plugin(strategy, timeoutMs: set.pluginTimeoutMs, perRun: set.pluginPerRun) {
            case .success(let entry): if set.entry(named: strategy) == nil { set.extra.append(entry) }
            case .failure(let error): return CheckOutcome(scenario: scenario.file, strategy: strategy, goldenPath: golden, verdict: .error(error))
            }
        case .projectPolicy(let file):
            switch shared.policy(file) {
            case .success(let entry):
                strategy = entry.name
                set.add(entry)
                recordArguments = entry.arguments
            case .failure(let error):
                return CheckOutcome(scenario: scenario.file, strategy: ScenarioLoader.policyStrategy, goldenPath: golden, verdict: .error(error))
            }
        case .unresolved(let why):
            return CheckOutcome(scenario: scenario.file, strategy: target.label, goldenPath: golden, verdict: .unresolved(why))
        }
        var outcome = check(scenario, strategy: strategy, label: target.label, golden: golden, strategies: set)
        outcome.recordArguments = recordArguments
        if strategy.hasPrefix(StrategySet.execPrefix), strategy == scenario.strategy, !only.contains(strategy) {
            let path = String(strategy.dropFirst(StrategySet.execPrefix.count))
            outcome.recordStrategy = StrategySet.execPrefix + ScenarioSource.besideScenario(scenario.file, path)
        }
        return outcome
    }

    func check(_ scenario: Scenario, strategy: String, label: String, golden: String, strategies: StrategySet) -> CheckOutcome {
        var outcome = CheckOutcome(scenario: scenario.file, strategy: strategy, goldenPath: golden, verdict: .pass)
        outcome.label = label
        let actual: String
        do {
            let result = try Pipeline.run(scenario, strategy: strategy, overrides: OptionOverride.parseAll(overrides), limits: limits,
                                          strategies: strategies)
            actual = TimelineText.render(result.timeline)
            outcome.judge(PropertyJudge.verdicts(result))
        } catch {
            outcome.verdict = .error(error)
            return outcome
        }
        outcome.actual = actual
        switch FileIO.kind(of: golden) {
        case .missing:
            // With `expect`, the properties are the check: no golden is needed (`--update`
            // records one all the same).
            outcome.verdict = scenario.expectations.isEmpty ? .missing : .pass
            outcome.goldenMissing = true
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
                                                              actualName: "actual: \(scenario.file) [\(label)]"))
        }
        return outcome
    }

    /// What the jobs of one `check` share: project files, and the plug-ins and policy files they
    /// list, each started or read once.
    final class Shared: Sendable {
        let projects: ProjectFiles
        private let plugins = System.Locked([String: Result<StrategyEntry, PopsimError>]())
        private let policies = System.Locked([String: Result<StrategyEntry, PopsimError>]())
        private let maxBytes: Int

        init(maxBytes: Int) {
            self.maxBytes = maxBytes
            projects = ProjectFiles(maxBytes: maxBytes)
        }

        func plugin(_ name: String, timeoutMs: Int, perRun: Bool) -> Result<StrategyEntry, PopsimError> {
            Self.cached(name, in: plugins) { () throws(PopsimError) in try StrategyArguments.plugin(name, timeoutMs: timeoutMs, perRun: perRun) }
        }

        func policy(_ file: String) -> Result<StrategyEntry, PopsimError> {
            Self.cached(file, in: policies) { () throws(PopsimError) in try PolicyFile.entry(file, maxBytes: maxBytes) }
        }

        /// `cache[key]`, made by `make` (once, under the lock) when it is not there yet.
        private static func cached<T: Sendable>(_ key: String, in cache: System.Locked<[String: Result<T, PopsimError>]>,
                                                _ make: () throws(PopsimError) -> T) -> Result<T, PopsimError> {
            cache.withLock { cache in
                if let known = cache[key] { return known }
                let result: Result<T, PopsimError>
                do throws(PopsimError) {
                    result = .success(try make())
                } catch {
                    result = .failure(error)
                }
                cache[key] = result
                return result
            }
        }
    }
}
