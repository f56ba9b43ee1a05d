import PopsimCore
import PopsimReports

/// `fit --save DIR`: the users the best gets wrong (those the report names) as scenarios under
/// the fitted model whose `expect` is what production showed — `replay --save`'s files, so
/// `check` runs them as they are.
enum FitSave {
    static func write(_ best: FitSearch.Finalist, users: [Replayer.User], data: FitData, report: FitReport, catalogBytes: [UInt8], strategies: StrategySet,
                      limits: RunLimits, to dir: String, inputs: [String]) throws(PopsimError) {
        let configuration = try RunConfiguration.resolve(data.catalog, strategy: best.candidate.strategy, overrides: best.candidate.overrides,
                                                         strategies: strategies)
        let column = Replayer.Column(label: best.candidate.label, configuration: configuration, catalog: data.catalog)
        let replayer = Replayer(catalog: data.catalog, columns: [column], limits: limits, file: report.trace)
        let root = try ReplaySave.catalogRoot(catalogBytes, path: report.catalog)
        try ReplaySave.makeFolder(dir, command: "fit")
        let named = Set(best.misses.map(\.user.row))
        for user in users.sorted(by: { $0.firstRow < $1.firstRow }) where named.contains(user.firstRow) {
            var tallies = replayer.emptyTallies()
            let runs: [(column: Int, run: Replayer.Run)]
            do {
                runs = try replayer.replay(user, into: &tallies, keep: { _, _ in true })
            } catch {
                throw PopsimError.replay(error)
            }
            for (_, run) in runs {
                guard let text = ReplaySave.disagreement(root, run, column, trace: report.trace, row: user.firstRow) else { continue }
                try ReplaySave.write(text, to: ReplaySave.stem(dir, user.ref, column, strategies: strategies) + ".production.json", inputs: inputs)
            }
        }
    }
}
