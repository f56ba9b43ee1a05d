import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// `fit … --sweep`: every user of the trace (fitted on and held out) replayed under each model
/// that fits with each combination of the swept values, on `jobs` threads — the replay a
/// `FitWhatIf` reads its ranges from.
///
/// Contract: the same bytes for any `jobs` (users go to threads by index, tallies merge in a fixed
/// order); the first run that fails by user order is returned, as replay returns it.
enum FitWhatIfRun {
    /// The models that fit and answer the what-if: those whose strategy has every swept option
    /// (a candidate scored with `--strategy` may not), the best first.
    static func models(_ report: FitReport, sweep: Sweep, strategies: StrategySet) -> [FitSearch.Finalist] {
        report.fitting.filter { f in
            guard let entry = strategies.entry(named: f.candidate.strategy) else { return false }
            return sweep.dimensions.allSatisfy { d in SweepAxes.all.contains { $0.varies(d.name, under: entry) } }
        }
    }

    /// The columns: each model of `models`, under each combination of `sweep`.
    static func columns(_ models: [FitSearch.Finalist], sweep: Sweep, catalog: Scenario, strategies: StrategySet) throws(PopsimError) -> [Replayer.Column] {
        var out: [Replayer.Column] = []
        for model in models {
            let c = model.candidate
            guard let entry = strategies.entry(named: c.strategy) else { throw PopsimError.internalError("fit: a model of no strategy: \(c.label)") }
            for values in sweep.combinations {
                let swept = sweep.overrides(values, under: entry)
                let label = c.label + (c.settings.isEmpty ? ":" : ",") + swept.joined(separator: ",")
                let configuration = try RunConfiguration.resolve(catalog, strategy: c.strategy, given: c.overrides, texts: swept, strategies: strategies,
                                                                 usage: "fit: --sweep: \(label)")
                var column = Replayer.Column(label: label, configuration: configuration, catalog: catalog)
                column.base = c.label
                column.values = values
                out.append(column)
            }
        }
        return out
    }

    /// Checks every combination of `sweep` against each strategy searched (a value its option
    /// refuses is an error before the search, not after it).
    static func check(_ sweep: Sweep, entries: [StrategyEntry], catalog: Scenario, strategies: StrategySet) throws(PopsimError) {
        for entry in entries {
            for values in sweep.combinations {
                let swept = sweep.overrides(values, under: entry)
                _ = try RunConfiguration.resolve(catalog, strategy: entry.name, texts: swept, strategies: strategies,
                                                 usage: "fit: --sweep \(swept.joined(separator: ",")) under \(entry.name)")
            }
        }
    }

    static func run(_ report: FitReport, sweep: Sweep, users: [Replayer.User], catalog: Scenario, strategies: StrategySet, limits: RunLimits,
                    jobs: Int, file: String, progress: ProgressLine?) throws(PopsimError) -> Result<FitWhatIf, ReplayFailure> {
        let models = models(report, sweep: sweep, strategies: strategies)
        let columns = try columns(models, sweep: sweep, catalog: catalog, strategies: strategies)
        let replayer = Replayer(catalog: catalog, columns: columns, limits: limits, file: file)
        let threads = max(1, min(jobs, users.count))
        let slots = Slots<Result<ReplayTallies, ReplayFailure>>(count: threads)
        let done = System.Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            var tallies = replayer.emptyTallies()
            var scratch = ReplayScratch(for: replayer)
            for i in stride(from: k, to: users.count, by: threads) {
                do throws(ReplayFailure) {
                    _ = try replayer.replay(users[i], into: &tallies, scratch: &scratch)
                } catch {
                    slots.set(k, .failure(error))
                    return
                }
                if i % 256 == 0 {
                    let n = done.withLock { d -> Int in
                        d += 256
                        return d
                    }
                    progress?.update("fit: the what-if, \(min(n, users.count)) of \(users.count) users")
                }
            }
            slots.set(k, .success(tallies))
        }
        var tallies = replayer.emptyTallies()
        var failures: [ReplayFailure] = []
        for k in 0..<threads {
            switch slots.get(k) {
            case .success(let t)?: tallies.merge(t)
            case .failure(let f)?: failures.append(f)
            case nil: break
            }
        }
        if let first = failures.min(by: { $0.user < $1.user }) { return .failure(first) }
        tallies.completeGroups(replayer.groups)
        var replay = ReplayReport(trace: report.trace, traceBytes: 0, traceDigest: report.traceDigest, catalog: report.catalog,
                                  catalogDigest: report.catalogDigest, shard: nil, rows: 0, badRows: 0, skippedUsers: 0,
                                  properties: catalog.expectations.map(\.text), labels: columns.map(\.label), tallies: tallies, hasProduction: true)
        replay.groups = replayer.groups.all
        replay.sweep = sweep.names
        replay.bases = columns.map(\.base)
        replay.sweepValues = columns.map(\.values)
        return .success(FitWhatIf(sweep: sweep.names, combinations: sweep.combinations, models: models.map(\.candidate.label), replay: replay))
    }
}
