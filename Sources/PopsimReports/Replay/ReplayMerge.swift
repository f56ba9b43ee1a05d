import PopsimCore

/// `replay --merge`: the JSON reports of the shards of one replay, added up into the report of
/// the whole, byte for byte what the unsharded replay prints.
///
/// Contract: refuses reports of different traces, catalogs, properties or columns, a report
/// that is not a shard, shard counts that differ, and a shard missing or given twice.
public enum ReplayMerge {
    public struct Problem: Error, Equatable {
        public var message: String
    }

    public static func merge(_ reports: [ReplayReport], paths: [String]) -> Result<ReplayReport, Problem> {
        guard var merged = reports.first else { return .failure(Problem(message: "no reports")) }
        for (r, path) in zip(reports, paths) {
            guard r.traceDigest == merged.traceDigest, r.traceBytes == merged.traceBytes else {
                return .failure(Problem(message: "\(path) replays another trace than \(paths[0])"))
            }
            guard r.catalogDigest == merged.catalogDigest, r.properties == merged.properties, r.groups == merged.groups else {
                return .failure(Problem(message: "\(path) replays another catalog than \(paths[0])"))
            }
            guard r.settings == merged.settings, !r.settings.isEmpty else {
                return .failure(Problem(message: r.settings.isEmpty
                    ? "\(path) does not say how it was made (a report of an older popsim): run its shard again"
                    : "\(path) was made with other settings than \(paths[0]) (the policy, a plug-in's file, --columns, --time-unit, "
                        + "--time-zone, --mapping, --max-steps, --max-lines or --max-errors differ)"))
            }
            guard r.labels == merged.labels, r.sweep == merged.sweep else {
                return .failure(Problem(message: "\(path) runs other strategies than \(paths[0]): \(r.labels.joined(separator: ", "))"))
            }
            guard r.rows == merged.rows, r.badRows == merged.badRows, r.hasProduction == merged.hasProduction,
                  r.hasTriggers == merged.hasTriggers,
                  r.unmapped.elementsEqual(merged.unmapped, by: { $0.event == $1.event && $0.rows == $1.rows }),
                  r.unmappedUnlisted == merged.unmappedUnlisted else {
                return .failure(Problem(message: "\(path) read the trace differently than \(paths[0]) (other --columns, --time-unit or --max-errors?)"))
            }
        }
        if let problem = shardProblem(reports.map(\.shard), paths: paths) { return .failure(Problem(message: problem)) }
        merged.tallies = ReplayTallies(columns: merged.labels.count, properties: merged.properties.count, groups: merged.groups.count)
        merged.skippedUsers = 0
        merged.userErrors = 0
        for r in reports {
            merged.tallies.merge(r.tallies)
            merged.skippedUsers += r.skippedUsers
            merged.userErrors += r.userErrors
        }
        merged.shard = nil
        merged.trace = reports[0].trace
        return .success(merged)
    }

    /// Why reports of shards (`shards`, each report's, read from `paths`) are not every shard of
    /// one whole once, in words; nil when they are. `replay --merge` and `fit --merge` say it alike.
    public static func shardProblem(_ shards: [String?], paths: [String]) -> String? {
        switch Shard.checkMerge(shards.map { $0.flatMap(Shard.written) }) {
        case .success: return nil
        case .failure(.notAShard(let at)): return "\(paths[at]) is not a shard's report (made with --shard I/N)"
        case .failure(.otherCount(let at, let shard, let others)): return "\(paths[at]) is shard \(shard.text), the others are of \(others)"
        case .failure(.twice(let first, let at, let shard)): return "\(paths[at]) and \(paths[first]) are both shard \(shard.text)"
        case .failure(.missing(let index, let count)): return "shard \(index)/\(count) is missing"
        }
    }
}
