extension ResolvedOptions {
    /// The options as one JSON object, numbers and words: `{"slots": 2, "order": "lifo"}` — as the
    /// JSON reports, compare and the plug-in protocol's `start` line all write them.
    public var json: String {
        var out = JSONObjectWriter()
        for setting in settings {
            switch setting.value {
            case .integer(let n): out.add(setting.name, n)
            case .text(let t): out.add(setting.name, t)
            }
        }
        return out.closed
    }
}
