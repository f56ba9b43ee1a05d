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
        var seen: [Int: String] = [:]
        var count: Int?
        for (r, path) in zip(reports, paths) {
            guard let shard = r.shard, let (i, n) = parse(shard) else {
                return .failure(Problem(message: "\(path) is not a shard's report (made with --shard I/N)"))
            }
            guard r.traceDigest == merged.traceDigest, r.traceBytes == merged.traceBytes else {
                return .failure(Problem(message: "\(path) replays another trace than \(paths[0])"))
            }
            guard r.catalogDigest == merged.catalogDigest, r.properties == merged.properties else {
                return .failure(Problem(message: "\(path) replays another catalog than \(paths[0])"))
            }
            guard r.labels == merged.labels, r.sweep == merged.sweep else {
                return .failure(Problem(message: "\(path) runs other strategies than \(paths[0]): \(r.labels.joined(separator: ", "))"))
            }
            guard r.rows == merged.rows, r.badRows == merged.badRows, r.hasProduction == merged.hasProduction else {
                return .failure(Problem(message: "\(path) read the trace differently than \(paths[0]) (other --columns, --time-unit or --max-errors?)"))
            }
            if let count, count != n { return .failure(Problem(message: "\(path) is shard \(shard), the others are of \(count)")) }
            count = n
            if let other = seen[i] { return .failure(Problem(message: "\(path) and \(other) are both shard \(shard)")) }
            seen[i] = path
        }
        let n = count ?? 0
        if let missing = (0..<n).first(where: { seen[$0] == nil }) {
            return .failure(Problem(message: "shard \(missing)/\(n) is missing"))
        }
        merged.tallies = ReplayTallies(columns: merged.labels.count, properties: merged.properties.count)
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

    /// `I/N` written by `--shard` (digits only, no leading zeros: `00/2` is not shard 0).
    static func parse(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && ($0 == "0" || $0.first != "0") }),
              let i = Int(parts[0]), let n = Int(parts[1]), i >= 0, i < n else { return nil }
        return (i, n)
    }
}
