extension StrategyEntry {
    /// `policy` under a policy file's rules (`--policy FILE`, a scenario's `"policy"`, a project
    /// file's `policies`): the registry's entry with the file's settings in place of its defaults,
    /// its goldens labelled `policy-<file stem>`, brought back by `--policy FILE`. Built at run
    /// time like a plug-in's entry from its handshake, and handed down in the `StrategySet`.
    public static func policy(file: String, settings: [OptionSetting]) -> StrategyEntry {
        var entry = StrategyEntry(PolicyStrategy.self)
        entry.baseSettings = settings
        entry.label = "policy-" + StrategySet.stem(file)
        entry.arguments = " --policy " + file
        return entry
    }
}
