/// A counterexample as a plain scenario file: the original file with the variant's instants,
/// orders and omissions written in, no uncertainty left, and the strategy it fails under — a
/// regression test that `check` runs as it is.
public enum CounterexampleFile {
    /// The text of the file, from the original's JSON tree `root`, naming `strategy` (a plug-in
    /// as `exec:PATH` from the file's new folder); `options`, if given, replace the file's (a
    /// policy file's rules written in, so the file needs no `policy` key: it is dropped).
    public static func text(_ root: JSONValue, scenario: Scenario, variant: Variant, strategy: String,
                            options: [OptionSetting]? = nil, property: String, sameStrategy: Bool = false) -> String {
        guard case .object(var members) = root.kind else { return JSONWriter.write(root) + "\n" }
        set(&members, "strategy", string(strategy))
        members.removeAll { $0.key == "policy" }
        // The scenario's own options belong to its own strategy, whatever its spelling here.
        let written = sameStrategy ? scenario.strategy : strategy
        set(&members, "name", string(scenario.name + " — counterexample: " + property))
        members.removeAll { $0.key == "options" && (scenario.strategy != written || options != nil) }
        if let options, !options.isEmpty {
            let values = options.map { o -> JSONValue.Member in
                let value: JSONValue
                switch o.value {
                case .integer(let n): value = JSONValue(.number(JSONNumber(text: String(n), integer: n, isOutOfRange: false)), at: SourceLocation(line: 0, column: 0))
                case .text(let t): value = string(t)
                }
                return JSONValue.Member(key: o.name, keyLocation: SourceLocation(line: 0, column: 0), value: value)
            }
            set(&members, "options", JSONValue(.object(values), at: SourceLocation(line: 0, column: 0)))
        }
        if let i = members.firstIndex(where: { $0.key == "events" }), case .array(let events) = members[i].value.kind {
            members[i].value.kind = .array(plain(events, scenario: scenario, variant: variant))
        }
        return JSONWriter.write(JSONValue(.object(members), at: root.location)) + "\n"
    }

    /// The events with the variant applied: the window's instant, the batch's order, the
    /// omitted ones gone, `order` and `maybe` removed.
    static func plain(_ events: [JSONValue], scenario: Scenario, variant: Variant) -> [JSONValue] {
        let byEvent = scenario.uncertaintyOfEvent
        return events.enumerated().compactMap { index, event in
            guard case .object(var members) = event.kind else { return event }
            let k = byEvent[index]
            if let k, !variant.present[k] { return nil }
            members.removeAll { $0.key == "order" || $0.key == "maybe" }
            if let i = members.firstIndex(where: { $0.key == "at" }) {
                var at = members[i].value
                if let k, scenario.uncertainties[k].window != nil {
                    at.kind = .number(JSONNumber(text: String(variant.times[k]), integer: variant.times[k], isOutOfRange: false))
                } else if case .array(let bounds) = at.kind, let first = bounds.first {
                    at = first
                }
                members[i].value = at
            }
            if let k, let i = members.firstIndex(where: { $0.key == "enqueue" }), case .array(let list) = members[i].value.kind,
               let reordered = variant.batch(k, list) {
                members[i].value.kind = .array(reordered)
            }
            return JSONValue(.object(members), at: event.location)
        }
    }

    static func string(_ s: String) -> JSONValue { JSONValue(.string(s), at: SourceLocation(line: 0, column: 0)) }

    static func set(_ members: inout [JSONValue.Member], _ key: String, _ value: JSONValue) {
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.insert(JSONValue.Member(key: key, keyLocation: value.location, value: value), at: min(1, members.count))
        }
    }
}
