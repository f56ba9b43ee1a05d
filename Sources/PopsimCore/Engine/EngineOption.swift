/// The options the engine itself reads, whichever strategy declares them: typed keys, so that no
/// layer reads them by a name spelled out again (`ResolvedOptions[.slots]`).
public enum EngineOption: String, CaseIterable, Sendable {
    /// Present and dismiss animation times (a popup's own wins).
    case showMs, hideMs
    /// Navigation transition time.
    case navMs
    /// Popups that may be on screen at once before `warning … overlap` (1 when not declared).
    case slots
    /// Display time of a popup that sets none (none when not declared).
    case duration

    /// The options every strategy has, which a file's `options` set whatever strategy runs.
    public static let shared: [EngineOption] = [.showMs, .hideMs, .navMs]

    /// Its place among `allCases`.
    var ordinal: Int {
        switch self {
        case .showMs: 0
        case .hideMs: 1
        case .navMs: 2
        case .slots: 3
        case .duration: 4
        }
    }
}

extension ResolvedOptions {
    /// The value of an engine option, if the strategy declares it.
    public subscript(_ option: EngineOption) -> Int? { engineValues[option.ordinal] }
}
