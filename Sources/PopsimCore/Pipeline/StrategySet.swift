/// The strategies a command may run: the registry's, plus what its command line brought — plug-ins
/// (`exec:PATH`, their entries made from their handshakes) and a policy file's settings.
///
/// Why a value handed down rather than a registry that grows: the registry is fixed at build time
/// and shared; what one command line adds belongs to that command only.
public struct StrategySet: Sendable {
    /// Entries beyond the registry, found by their `name` (`exec:PATH` as the user wrote it).
    public var extra: [StrategyEntry]
    /// `--policy FILE`: the `policy` strategy's settings standing in for its defaults.
    public var policy: [OptionSetting]
    /// The policy file's path, which names its goldens (`goldenLabel`).
    public var policyFile: String?
    /// How long a plug-in may take to answer one line (`--plugin-timeout`), for plug-ins started
    /// later (one a scenario or a project file names).
    public var pluginTimeoutMs = 5000
    /// A new process for every run, even for a plug-in that serves many (`--plugin-per-run`).
    public var pluginPerRun = false

    public init(extra: [StrategyEntry] = [], policy: [OptionSetting] = []) {
        self.extra = extra
        self.policy = policy
    }

    /// Only the registry's strategies, at their defaults.
    public static let builtIn = StrategySet()

    public func entry(named name: String) -> StrategyEntry? {
        StrategyRegistry.entry(named: name) ?? extra.first { $0.name == name }
    }

    /// What names a strategy's goldens (`<stem>.<label>.timeline`): its name, but `exec-<file
    /// stem>` for a plug-in and `policy-<file stem>` for `policy` with a policy file (the same
    /// scenario has other timelines under other rules).
    public func goldenLabel(_ name: String) -> String {
        if name.hasPrefix(Self.execPrefix) { return "exec-" + Self.stem(String(name.dropFirst(Self.execPrefix.count))) }
        if name == ScenarioLoader.policyStrategy, let file = policyFile { return "policy-" + Self.stem(file) }
        return name
    }

    /// How a plug-in is named where a strategy is: `exec:PATH`.
    public static let execPrefix = "exec:"

    /// A path's file name without its last extension.
    public static func stem(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The settings that replace `entry`'s defaults (the policy file's, for `policy`).
    func baseSettings(of entry: StrategyEntry) -> [OptionSetting] {
        entry.name == ScenarioLoader.policyStrategy ? policy : []
    }
}
