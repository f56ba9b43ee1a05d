import PopsimCore
import PopsimReports

/// The JSON reports of shards for `--merge` (`replay`, `fit`): each file read and parsed, in the
/// order given; the first that cannot be is an error naming it.
enum ShardReports {
    static func read<Report>(_ paths: [String], parse: ([UInt8]) -> Result<Report, ReplayJSON.Problem>) throws(PopsimError) -> [Report] {
        var reports: [Report] = []
        for path in paths {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.read(path)
            } catch {
                throw PopsimError.io(path: path, reason: error.reason)
            }
            switch parse(bytes) {
            case .success(let r): reports.append(r)
            case .failure(let problem): throw PopsimError.io(path: path, reason: problem.message)
            }
        }
        return reports
    }
}
