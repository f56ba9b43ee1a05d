import PopsimCore
import PopsimReports

/// popsim's exit codes: the one mapping from outcome to status (design.md §7, GNU diff's 0/1/2).
public enum ExitCode: Int32, Sendable {
    /// Everything worked; for `check`, every scenario matched.
    case success = 0
    /// A check found a difference, or a run broke a property of its scenario's `expect`.
    case difference = 1
    /// Bad usage or bad input: a wrong flag, an unreadable or invalid file.
    case badInput = 2
    /// An internal error: a strategy broke the engine's rules. Always a bug in popsim.
    case internalError = 70

    /// The worse of two outcomes (internal error > bad input > difference > success).
    public func worst(_ other: ExitCode) -> ExitCode {
        func rank(_ c: ExitCode) -> Int {
            switch c {
            case .success: return 0
            case .difference: return 1
            case .badInput: return 2
            case .internalError: return 3
            }
        }
        return rank(other) > rank(self) ? other : self
    }
}
