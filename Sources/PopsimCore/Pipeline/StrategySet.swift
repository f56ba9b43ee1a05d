/// The strategies a command may run: the registry's, plus the entries built at run time from what
/// its command line, scenario or project file brought — plug-ins (`exec:PATH`, from their
/// handshakes) and `policy` under a policy file (`StrategyEntry.policy`), which stands in for
/// the registry's entry of the same name.
///
/// Why a value handed down rather than a registry that grows: the registry is fixed at build time
/// and shared; what one command line adds belongs to that command only.
public struct StrategySet: Sendable {
    /// Entries built at run time, found by their `name` (`exec:PATH` as the user wrote it) before
    /// the registry's.
    public var extra: [StrategyEntry]
    /// How long a plug-in may take to answer one line (`--plugin-timeout`), for plug-ins started
    /// later (one a scenario or a project file names).
    public var pluginTimeoutMs = 5000
    /// A new process for every run, even for a plug-in that serves many (`--plugin-per-run`).
    public var pluginPerRun = false

    public init(extra: [StrategyEntry] = []) {
        self.extra = extra
    }

    /// Only the registry's strategies, at their defaults.
    public static let builtIn = StrategySet()

    public func entry(named name: String) -> StrategyEntry? {
        extra.first { $0.name == name } ?? StrategyRegistry.entry(named: name)
    }

    /// Adds an entry built at run time, in place of one of the same name.
    public mutating func add(_ entry: StrategyEntry) {
        extra.removeAll { $0.name == entry.name }
        extra.append(entry)
    }

    /// Whether an entry built at run time answers to `name`.
    public func builds(_ name: String) -> Bool { extra.contains { $0.name == name } }

    /// The set without the entries built at run time under `name`: the registry's at its defaults.
    public func registryOnly(_ name: String) -> StrategySet {
        var set = self
        set.extra.removeAll { $0.name == name }
        return set
    }

    /// What names a strategy's goldens (`<stem>.<label>.timeline`): its entry's label (its name,
    /// but `exec-<file stem>` for a plug-in and `policy-<file stem>` under a policy file: the same
    /// scenario has other timelines under other rules); a plug-in not started yet by its path.
    public func goldenLabel(_ name: String) -> String {
        if let entry = extra.first(where: { $0.name == name }) { return entry.label }
        if name.hasPrefix(Self.execPrefix) { return Self.pluginLabel(name) }
        return name
    }

    /// A plug-in's golden label, `exec-<file stem>`, from its name `exec:PATH`.
    static func pluginLabel(_ name: String) -> String { "exec-" + stem(String(name.dropFirst(execPrefix.count))) }

    /// How a plug-in is named where a strategy is: `exec:PATH`.
    public static let execPrefix = "exec:"

    /// A path's file name without its last extension.
    public static func stem(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
