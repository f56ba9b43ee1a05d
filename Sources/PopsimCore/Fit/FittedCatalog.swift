/// The catalog `fit --output` writes: the team's catalog with the fitted `strategy` and its
/// non-default `options`, each option after a `"// NAME"` member saying what it is (the loader
/// skips members whose key starts with `//`), so that `replay`, `run`, `check` and `explore` use
/// the fitted model as it is.
public enum FittedCatalog {
    static let at = SourceLocation(line: 0, column: 0)

    /// `root`: the catalog's JSON tree; `note`: a sentence added to its description.
    public static func text(_ root: JSONValue, candidate: FitCandidate, entry: StrategyEntry, note: String) -> String {
        guard case .object(var members) = root.kind else { return JSONWriter.write(root) + "\n" }
        members.removeAll { $0.key == "policy" }
        CounterexampleFile.set(&members, "strategy", JSONValue(.string(candidate.strategy), at: at))
        // The app's animation times apply under any strategy: they stay.
        var options: [JSONValue.Member] = []
        if let old = members.first(where: { $0.key == "options" }), case .object(let kept) = old.value.kind {
            options = kept.filter { OptionSpec.shared.contains($0.key) }
        }
        for s in candidate.settings {
            guard let spec = entry.option(named: s.name) else { continue }
            options.append(member("// " + s.name, JSONValue(.string(spec.summary), at: at)))
            if case .integer = spec.kind, let n = Int(s.value) {
                options.append(member(s.name, JSONValue(.number(JSONNumber(text: String(n), integer: n, isOutOfRange: false)), at: at)))
            } else {
                options.append(member(s.name, JSONValue(.string(s.value), at: at)))
            }
        }
        members.removeAll { $0.key == "options" }
        if !options.isEmpty {
            let after = members.firstIndex { $0.key == "strategy" }.map { $0 + 1 } ?? members.count
            members.insert(member("options", JSONValue(.object(options), at: at)), at: after)
        }
        let old: String
        if let d = members.first(where: { $0.key == "description" }), case .string(let text) = d.value.kind { old = text + " " } else { old = "" }
        CounterexampleFile.set(&members, "description", JSONValue(.string(old + note), at: at))
        return JSONWriter.write(JSONValue(.object(members), at: root.location)) + "\n"
    }

    static func member(_ key: String, _ value: JSONValue) -> JSONValue.Member {
        JSONValue.Member(key: key, keyLocation: at, value: value)
    }
}
