/// Why a popup still waiting when the run ends was held back by a rule rather than waiting for
/// its turn on a busy screen: the pending list and `lint` say so (docs/engine.md).
public enum HoldReason: String, Sendable, Equatable {
    /// Its `when` does not hold (under a strategy that reads conditions).
    case condition
    /// The scheduler is suspended (`suspend` without `resume`).
    case suspended
    /// Pacing: `cooldownMs` after the last popup left has not passed.
    case cooldown
    /// Pacing: `rateCount` shows within `rateWindowMs` already.
    case rateLimit = "rate limit"
    /// Pacing: `minGapMs` since the last show has not passed.
    case minimumGap = "minimum gap"

    /// Words for reports: `its condition`, `suspend`, `the cooldown`, ….
    public var phrase: String {
        switch self {
        case .condition: return "its condition"
        case .suspended: return "suspend"
        case .cooldown: return "the cooldown"
        case .rateLimit: return "the rate limit"
        case .minimumGap: return "the minimum gap"
        }
    }
}
