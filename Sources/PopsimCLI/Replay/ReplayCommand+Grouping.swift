import PopsimCore
import PopsimReports

/// How `replay` breaks its figures down and sweeps them: `--by` and `--sweep` read.
extension ReplayCommand {
    /// `--by popup|level|key`, or `--by popup:upgrade,campaign` for some of them: the groups
    /// text, markdown and the charts break every figure down by (JSON and CSV have all of them).
    /// A name no group of that kind has is an error, with the closest one.
    /// (`report` nil: the kind is checked, not the names.)
    static func grouping(_ args: Arguments, report: ReplayReport?) throws(PopsimError) -> (ReplayGroups.By?, [String]) {
        guard let text = args.value("by") else { return (nil, []) }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let by = ReplayGroups.By(rawValue: parts[0]) else {
            let words = ReplayGroups.By.allCases.map(\.rawValue)
            throw PopsimError.usage("replay: --by: expected one of \(words.joined(separator: ", ")), or one and :NAME,… for some of its groups; "
                                    + "got \(JSONValue.quoted(text))")
        }
        guard parts.count == 2, let report else { return (by, []) }
        let names = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let known = report.groups.filter { $0.by == by }.map(\.name)
        for name in names where !known.contains(name) {
            throw PopsimError.usage("replay: --by \(by.rawValue):…: no \(by.rawValue) \(JSONValue.quoted(name)) in the catalog"
                                    + (Suggestion.closest(name, among: known).map { " (did you mean \(JSONValue.quoted($0))?)" } ?? ""))
        }
        return (by, names)
    }

    /// `--sweep NAME=V1,V2,…`, each name once, at most 1000 columns in all.
    static func sweeps(_ args: Arguments, command: String = "replay") throws(PopsimError) -> Sweep {
        switch Sweep.parse(args.all("sweep")) {
        case .success(let sweep): return sweep
        case .failure(.malformed(let text)):
            throw PopsimError.usage("\(command): --sweep: expected NAME=V1,V2,... with each name once, got \(JSONValue.quoted(text))")
        case .failure(.tooManyCombinations):
            throw PopsimError.usage("\(command): --sweep: more than \(Sweep.maxCombinations) combinations")
        }
    }
}
