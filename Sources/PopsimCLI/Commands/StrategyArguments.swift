import PopsimCore
import PopsimReports

/// What a command line adds to the built-in strategies: `--policy FILE` (the `policy` strategy's
/// rules from a file) and `--strategy exec:PATH` plug-ins (each described by its handshake).
///
/// Contract: a bad policy file is reported like a bad scenario (every problem located, exit 2)
/// before anything runs.
enum StrategyArguments {
    /// How long a plug-in may take to answer one line, by default.
    static let defaultTimeoutMs = 5000

    /// The strategies `args` may name: the registry's, each `--strategy exec:PATH` (its handshake
    /// read now, so a plug-in that cannot start stops the command before anything runs), and
    /// the policy file's rules.
    static func set(_ args: Arguments, maxBytes: Int = FileIO.defaultMaxBytes) throws(PopsimError) -> StrategySet {
        var set = StrategySet()
        set.pluginTimeoutMs = try timeout(args)
        set.pluginPerRun = args.flag("plugin-per-run")
        if let path = args.value("policy") { set.add(try PolicyFile.entry(path, maxBytes: maxBytes)) }
        try refuseSharedLabels(args.all("strategy"))
        for name in args.all("strategy") where name.hasPrefix(StrategySet.execPrefix) && set.entry(named: name) == nil {
            set.extra.append(try plugin(name, timeoutMs: set.pluginTimeoutMs, perRun: set.pluginPerRun))
        }
        return set
    }

    /// Two plug-ins of one file stem (`exec:a/x.py`, `exec:b/x.py`) would share one label, one
    /// column and one golden (`exec-x`): written twice by `--update`, and every later check of
    /// one against the other's timeline. Refused, before either starts.
    static func refuseSharedLabels(_ names: [String]) throws(PopsimError) {
        var seen: [String: String] = [:]
        for name in names where name.hasPrefix(StrategySet.execPrefix) {
            let label = StrategySet.builtIn.goldenLabel(name)
            if let other = seen[label], other != name {
                throw PopsimError.usage("--strategy \(TerminalText.safe(other)) and \(TerminalText.safe(name)) share the label \(TerminalText.safe(label)) "
                                        + "(one column, one golden): give the plug-ins files of different names")
            }
            seen[label] = name
        }
    }

    static func timeout(_ args: Arguments) throws(PopsimError) -> Int {
        guard let text = args.value("plugin-timeout") else { return defaultTimeoutMs }
        guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
            throw PopsimError.usage("--plugin-timeout: expected a number of seconds above 0 and at most 86400, got \(JSONValue.quoted(text))")
        }
        return max(1, Int(seconds * 1000))
    }

    /// `exec:PATH` as a strategy: its handshake now, then a process per run — or, for a plug-in
    /// that serves many runs (unless `perRun`), a pool that reuses its processes. `path` is
    /// where the executable is when `name` spells it relative to another folder (a scenario's).
    static func plugin(_ name: String, path: String? = nil, timeoutMs: Int, perRun: Bool = false) throws(PopsimError) -> StrategyEntry {
        let path = path ?? String(name.dropFirst(StrategySet.execPrefix.count))
        guard !path.isEmpty, name != StrategySet.execPrefix else { throw PopsimError.usage("--strategy exec:PATH: expected the path of an executable after 'exec:'") }
        let hello: PluginHello
        let first: PluginProcess
        do throws(PluginFailure) {
            first = try PluginProcess.start(path, timeoutMs: timeoutMs)
            do throws(PluginFailure) {
                hello = try first.hello()
            } catch {
                first.close()
                throw error
            }
        } catch {
            throw PopsimError.run(.plugin(name: name, time: nil, failure: error))
        }
        guard hello.persistent && !perRun else {
            first.close()
            return StrategyEntry.plugin(name: name, hello: hello) { () throws(PluginFailure) -> PluginChannel in
                try PluginProcess.started(path, timeoutMs: timeoutMs)
            }
        }
        let pool = PluginPool(path: path, timeoutMs: timeoutMs, first: first)
        return StrategyEntry.plugin(name: name, hello: hello) { () throws(PluginFailure) -> PluginChannel in try pool.take() }
    }

    /// The strategy a command runs when the line names none: `policy` when a policy file is given.
    static func defaultStrategy(_ args: Arguments) -> String? {
        args.value("strategy") ?? (args.value("policy") != nil ? ScenarioLoader.policyStrategy : nil)
    }
}
