import PopsimCore
import PopsimReports

/// What a command line adds to the built-in strategies: `--policy FILE` (the `policy` strategy's
/// rules from a file) and, later in the line, `--strategy exec:PATH` plug-ins.
///
/// Contract: a bad policy file is reported like a bad scenario (every problem located, exit 2)
/// before anything runs.
enum StrategyArguments {
    static let specs: [Arguments.Spec] = [.init(name: "policy", takesValue: true)]

    /// The strategies `args` may name.
    static func set(_ args: Arguments, maxBytes: Int = FileIO.defaultMaxBytes) throws(PopsimError) -> StrategySet {
        var set = StrategySet()
        if let path = args.value("policy") {
            set.policy = try loadPolicy(path, maxBytes: maxBytes)
            set.policyFile = path
        }
        return set
    }

    static func loadPolicy(_ path: String, maxBytes: Int) throws(PopsimError) -> [OptionSetting] {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: maxBytes)
        } catch {
            throw .input(LoadErrors([LoadError(file: path, location: nil, path: .root, problem: .unreadable(error.reason))]))
        }
        switch ScenarioLoader.loadPolicy(bytes, file: path, catalog: StrategyRegistry.catalog) {
        case .success(let settings): return settings
        case .failure(let errors): throw .input(errors)
        }
    }

    /// The strategy a command runs when the line names none: `policy` when a policy file is given.
    static func defaultStrategy(_ args: Arguments) -> String? {
        args.value("strategy") ?? (args.value("policy") != nil ? ScenarioLoader.policyStrategy : nil)
    }
}
