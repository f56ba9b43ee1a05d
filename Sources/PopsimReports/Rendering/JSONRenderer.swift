import PopsimCore

/// The JSON report of one run, for machines: design.md §6 with keys in a fixed order.
///
/// Written by hand rather than with `JSONEncoder`: `.sortedKeys` is stable but alphabetical,
/// which is not the order the design fixes (`t`, `event`, `popup`, `reason`). One timeline entry
/// per line, so that diffs of saved output stay readable; ends with a newline.
public enum JSONRenderer {
    public static func render(_ result: RunResult) -> String {
        var writer = ByteWriter()
        render(result, into: &writer)
        return writer.text
    }

    /// Formats straight into `writer`, one timeline entry per line.
    /// `verdicts`: the run's, when the caller judged them already (they are judged once a run).
    public static func render(_ result: RunResult, verdicts known: [PropertyVerdict]? = nil, into writer: inout ByteWriter) {
        var head = "{\"popsim\": 1, \"scenario\": " + string(result.scenario.name)
        head += ", \"strategy\": " + string(result.strategy) + ", \"options\": {"
        head += result.options.settings.map { s in
            let value: String
            switch s.value {
            case .integer(let n): value = String(n)
            case .text(let t): value = string(t)
            }
            return string(s.name) + ": " + value
        }.joined(separator: ", ")
        // A scenario with uncertain arrivals runs its nominal variant: say so.
        if result.scenario.isUncertain { head += "}, \"nominal\": true" } else { head += "}" }
        writer.write(head + ",\n  \"timeline\": [")
        let timeline = result.timeline
        let names = timeline.subjects.map { Array(string($0).utf8) }
        let events = TimelineEvent.allCases.map { Array("\"\($0.rawValue)\"".utf8) }
        let reasons = Reason.allCases.map { Array("\"\($0.rawValue)\"}".utf8) }
        for (i, entry) in timeline.entries.enumerated() {
            writer.write(i == 0 ? "\n    {\"t\": " : ",\n    {\"t\": ")
            writer.integer(entry.t)
            writer.write(", \"event\": ")
            writer.write(bytes: events[entry.event.ordinal])
            if entry.subject >= 0 {
                writer.write(entry.event == .nav || entry.reason?.namesScreen == true ? ", \"screen\": " : ", \"popup\": ")
                writer.write(bytes: names[Int(entry.subject)])
            }
            if let reason = entry.reason {
                writer.write(", \"reason\": ")
                if let button = timeline.button(entry) {
                    writer.write("\"\(reason.rawValue)\", \"button\": " + string(button) + "}")
                } else {
                    writer.write(bytes: reasons[reason.ordinal])
                }
            } else {
                writer.byte(0x7D)
            }
        }
        writer.write(timeline.entries.isEmpty ? "],\n" : "\n  ],\n")
        writer.write("  \"summary\": " + summary(Summary(result), result: result))
        let verdicts = known ?? PropertyJudge.verdicts(result)
        writer.write(verdicts.isEmpty ? "}\n" : ",\n  \"expect\": [" + verdicts.map(verdict).joined(separator: ", ") + "]}\n")
    }

    /// `{"property": "no overlap", "holds": true}`, or with `"at"` and `"evidence"` when it fails,
    /// `"note"` when it holds only because requests were dropped.
    static func verdict(_ v: PropertyVerdict) -> String {
        var out = "{\"property\": " + string(v.expectation.text) + ", \"holds\": \(v.holds)"
        if let f = v.failure { out += ", \"at\": \(f.at), \"evidence\": " + string(f.text) }
        if let note = v.noteText { out += ", \"note\": " + string(note) }
        return out + "}"
    }

    static func summary(_ s: Summary, result: RunResult) -> String {
        var out = "{\"shown\": \(s.shown), \"dropped\": \(s.dropped), \"pending\": \(s.pending), "
        out += "\"warnings\": \(s.warnings), \"end\": \(s.end), \"pendingPopups\": ["
        out += result.pending.map { string(result.scenario.name(of: $0)) }.joined(separator: ", ") + "], "
        let held = zip(result.pending, result.heldBack).compactMap { p, why in why.map { (result.scenario.name(of: p), $0) } }
        if !held.isEmpty {
            // Each popup once, with the rule that holds it back (as the text's pending line).
            var seen = Set<String>()
            out += "\"heldBack\": {" + held.filter { seen.insert($0.0).inserted }.map { string($0.0) + ": " + string($0.1.rawValue) }
                .joined(separator: ", ") + "}, "
        }
        out += "\"onScreen\": ["
        out += result.onScreen.map { string(result.scenario.name(of: $0)) }.joined(separator: ", ")
        out += "], \"eventsNotRun\": \(result.eventsNotRun), \"popups\": ["
        out += s.popups.map { p in
            "{\"popup\": \(string(p.popup)), \"enqueued\": \(p.enqueued), \"firstShown\": "
                + (p.firstShown.map(String.init) ?? "null") + ", \"wait\": " + (p.wait.map(String.init) ?? "null") + "}"
        }.joined(separator: ", ")
        return out + "]}"
    }

    /// A JSON string literal; non-ASCII is written as is (the output is UTF-8).
    static func string(_ s: String) -> String { JSONValue.literal(s) }
}
