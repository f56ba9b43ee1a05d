import PopsimCore

/// Why a run stopped, in words: `RunError` is data; the CLI's `ErrorReport` prints these lines.
public enum RunErrorText {
    /// What went wrong, in the words of popsim's model (the CLI adds the prefix and any hint).
    public static func message(_ error: RunError) -> String {
        switch error {
        case .strategyBroke(let strategy, let time, let decision):
            return "strategy \(strategy) at \(time) ms: \(decision)"
        case .runaway(let file, let time, let limit, let perInstant):
            let scope = perInstant ? "at one instant" : "in all"
            return "\(file): the run did not settle: more than \(limit) steps \(scope) (at \(time) ms); "
                + "a popup may re-enqueue itself forever"
        case .tooManyLines(let file, let time, let limit):
            return "\(file): the timeline grew past \(limit) lines (at \(time) ms)"
        case .invariant(let strategy, let time, let message):
            return "strategy \(strategy) at \(time) ms broke an invariant: \(message)"
        case .plugin(let name, let time, let failure):
            return "plug-in \(name)" + (time.map { " at \($0) ms" } ?? "") + ": " + PluginFailureText.text(failure)
        }
    }
}
