import Dispatch

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

    public init(only: String? = nil, overrides: [String] = [], limits: RunLimits = RunLimits(),
                maxBytes: Int = FileIO.defaultMaxBytes) {
        self.only = only
        self.overrides = overrides
        self.limits = limits
        self.maxBytes = maxBytes
    }

    /// What checking one scenario under one strategy found.
    public struct Outcome: Sendable, Equatable {
        public enum Verdict: Sendable, Equatable {
            case pass
            /// The run differs from the golden: the unified diff.
            case differs(diff: String)
            /// No golden yet.
            case missing
            /// The scenario could not be loaded or run: error lines and the exit code.
            case error(lines: [String], code: ExitCode)
        }

        public var scenario: String
        public var strategy: String?
        public var goldenPath: String?
        public var verdict: Verdict
        /// The actual timeline text (for `--update`).
        public var actual: String?
    }

    public func run(_ paths: [String], jobs: Int) -> [Outcome] {
        let results = Results(count: paths.count)
        let workers = max(1, min(jobs, paths.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: paths.count, by: workers) {
                results.set(i, check(paths[i]))
            }
        }
        return results.all.flatMap { $0 }
    }

    /// Every outcome of one scenario.
    public func check(_ path: String) -> [Outcome] {
        let scenario: Scenario
        switch ScenarioSource.load(path, maxBytes: maxBytes) {
        case .success(let s): scenario = s
        case .failure(let errors):
            return [Outcome(scenario: path, strategy: nil, goldenPath: nil,
                            verdict: .error(lines: errors.errors.map(\.line), code: .badInput), actual: nil)]
        }
        let strategies = Expectations.strategies(for: scenario, only: only)
        guard !strategies.isEmpty else {
            let line = "\(path): no expected timeline and no \"strategy\": record one with "
                + "'popsim check \(path) --strategy <name> --update'"
            return [Outcome(scenario: path, strategy: nil, goldenPath: nil, verdict: .error(lines: [line], code: .badInput), actual: nil)]
        }
        return strategies.map { check(scenario, strategy: $0) }
    }

    func check(_ scenario: Scenario, strategy: String) -> Outcome {
        let golden = ScenarioSource.goldenPath(for: scenario.file, strategy: strategy)
        var outcome = Outcome(scenario: scenario.file, strategy: strategy, goldenPath: golden, verdict: .pass, actual: nil)
        do {
            let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: overrides)
            let actual = TimelineText.render(try configuration.run(scenario, limits: limits).timeline)
            outcome.actual = actual
            guard let bytes = try? FileIO.read(golden) else {
                outcome.verdict = .missing
                return outcome
            }
            let expected = String(decoding: bytes, as: UTF8.self)
            if expected != actual {
                outcome.verdict = .differs(diff: UnifiedDiff.diff(expected: expected, actual: actual,
                                                                  expectedName: "expected: \(golden)",
                                                                  actualName: "actual: \(scenario.file) [\(strategy)]"))
            }
        } catch let error as UsageError {
            outcome.verdict = .error(lines: ["popsim: " + error.message], code: .badInput)
        } catch let error as LoadErrors {
            outcome.verdict = .error(lines: error.errors.map(\.line), code: .badInput)
        } catch let error as RunError {
            outcome.verdict = .error(lines: [error.message], code: ExitCode.of(error))
        } catch {
            outcome.verdict = .error(lines: ["popsim: internal error: \(error)"], code: .internalError)
        }
        return outcome
    }
}

/// Slots the workers fill; read once all are done.
private final class Results: @unchecked Sendable {
    private var slots: [[CheckRunner.Outcome]]
    private let lock = NSLockLike()

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ i: Int, _ value: [CheckRunner.Outcome]) {
        lock.locked { slots[i] = value }
    }

    var all: [[CheckRunner.Outcome]] { lock.locked { slots } }
}

/// A mutex from Dispatch, so the library needs no Foundation.
private final class NSLockLike: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)

    func locked<T>(_ body: () -> T) -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return body()
    }
}
