import PopsimCore
import PopsimReports

/// A policy file read for a command (`--policy FILE`, a scenario's `"policy"`, a project file's
/// `policies`): the rules of `policy`, as an entry of the run's `StrategySet`.
enum PolicyFile {
    /// The `policy` strategy under the file at `path` (see `StrategyEntry.policy`); a bad file is
    /// reported like a bad scenario: every problem located, exit 2.
    static func entry(_ path: String, maxBytes: Int) throws(PopsimError) -> StrategyEntry {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: maxBytes)
        } catch {
            throw .input(LoadErrors([LoadError(file: path, location: nil, path: .root, problem: .unreadable(error.reason))]))
        }
        switch ScenarioLoader.loadPolicy(bytes, file: path, catalog: StrategyRegistry.catalog) {
        case .success(let settings): return .policy(file: path, settings: settings)
        case .failure(let errors): throw .input(errors)
        }
    }
}
