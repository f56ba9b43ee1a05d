import PopsimCore

extension RunConfiguration {
    /// `resolve` for a strategy the command line named: `given` (parsed already) and `texts`
    /// (`name=value`, parsed here) over the catalog's options; an option it refuses, or a text that
    /// is no `name=value`, is bad usage worded after `context` (`replay: --strategy fg:x=1: …`).
    static func resolve(_ catalog: Scenario, strategy: String, given: [OptionOverride] = [], texts: [String], strategies: StrategySet,
                        usage context: String) throws(PopsimError) -> RunConfiguration {
        do throws(PopsimError) {
            return try resolve(catalog, strategy: strategy, overrides: given + OptionOverride.parseAll(texts), strategies: strategies)
        } catch {
            if case .configuration(let problem) = error { throw PopsimError.usage(context + ": " + ErrorReport.words(problem)) }
            throw error
        }
    }
}
