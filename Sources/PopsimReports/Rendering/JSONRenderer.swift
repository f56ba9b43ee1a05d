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
        var head = JSONObjectWriter()
        head.add("popsim", 1)
        head.add("scenario", result.scenario.name)
        head.add("strategy", result.strategy)
        head.add("options", json: result.options.json)
        // A scenario with uncertain arrivals runs its nominal variant: say so.
        if result.scenario.isUncertain { head.add("nominal", true) }
        writer.write(head.open + ",\n  \"timeline\": [")
        let timeline = result.timeline
        let instanceKey = JSONObjectWriter.opening("instance")
        // One entry per line, appended in `JSONObjectWriter`'s layout with its openings made once.
        // An instance is named by its file's popup, then its number (`"instance": 2`).
        let names = timeline.subjects.indices.map { s in
            guard let (popup, n) = timeline.instance(Int32(s)) else { return JSONObjectWriter.bytes(timeline.subjects[s]) }
            return JSONObjectWriter.bytes(popup) + instanceKey + Array(String(n).utf8)
        }
        let events = TimelineEvent.allCases.map { JSONObjectWriter.bytes($0.rawValue) }
        let reasons = Reason.allCases.map { JSONObjectWriter.bytes($0.rawValue) }
        let first = Array("\n    ".utf8) + JSONObjectWriter.opening("t", first: true)
        let next = Array(",\n    ".utf8) + JSONObjectWriter.opening("t", first: true)
        let event = JSONObjectWriter.opening("event"), screen = JSONObjectWriter.opening("screen")
        let popup = JSONObjectWriter.opening("popup"), reasonKey = JSONObjectWriter.opening("reason")
        let buttonKey = JSONObjectWriter.opening("button")
        for (i, entry) in timeline.entries.enumerated() {
            writer.write(bytes: i == 0 ? first : next)
            writer.integer(entry.t)
            writer.write(bytes: event)
            writer.write(bytes: events[entry.event.ordinal])
            if entry.subject >= 0 {
                writer.write(bytes: entry.event == .nav || entry.reason?.namesScreen == true ? screen : popup)
                writer.write(bytes: names[Int(entry.subject)])
            }
            if let reason = entry.reason {
                writer.write(bytes: reasonKey)
                writer.write(bytes: reasons[reason.ordinal])
                if let button = timeline.button(entry) {
                    writer.write(bytes: buttonKey)
                    writer.write(string(button))
                }
            }
            writer.byte(0x7D)
        }
        writer.write(timeline.entries.isEmpty ? "],\n" : "\n  ],\n")
        writer.write("  \"summary\": " + summary(Summary(result), result: result))
        let verdicts = known ?? PropertyJudge.verdicts(result)
        writer.write(verdicts.isEmpty ? "}\n" : ",\n  \"expect\": [" + verdicts.map(verdict).joined(separator: ", ") + "]}\n")
    }

    /// `{"property": "no overlap", "holds": true}`, or with `"at"` and `"evidence"` when it fails,
    /// `"note"` when it holds only because requests were dropped.
    static func verdict(_ v: PropertyVerdict) -> String {
        var out = JSONObjectWriter()
        out.add("property", v.expectation.text)
        out.add("holds", v.holds)
        if let f = v.failure {
            out.add("at", f.at)
            out.add("evidence", f.text)
        }
        if let note = v.noteText { out.add("note", note) }
        return out.closed
    }

    static func summary(_ s: Summary, result: RunResult) -> String {
        var out = JSONObjectWriter()
        out.add("shown", s.shown)
        out.add("dropped", s.dropped)
        out.add("pending", s.pending)
        out.add("warnings", s.warnings)
        out.add("end", s.end)
        out.add("pendingPopups", strings: result.pending.map { result.scenario.name(of: $0) })
        let held = zip(result.pending, result.heldBack).compactMap { p, why in why.map { (result.scenario.name(of: p), $0) } }
        if !held.isEmpty {
            // Each popup once, with the rule that holds it back (as the text's pending line).
            var seen = Set<String>()
            var heldBack = JSONObjectWriter()
            for (name, why) in held where seen.insert(name).inserted { heldBack.add(name, why.rawValue) }
            out.add("heldBack", json: heldBack.closed)
        }
        out.add("onScreen", strings: result.onScreen.map { result.scenario.name(of: $0) })
        out.add("eventsNotRun", result.eventsNotRun)
        out.add("popups", json: JSONObjectWriter.array(s.popups.map { p in
            var popup = JSONObjectWriter()
            popup.add("popup", p.instanceOf ?? p.popup)
            if let n = p.instanceNumber { popup.add("instance", n) }
            popup.add("enqueued", p.enqueued)
            popup.add("firstShown", p.firstShown)
            popup.add("wait", p.wait)
            return popup.closed
        }))
        return out.closed
    }

    /// A JSON string literal; non-ASCII is written as is (the output is UTF-8).
    static func string(_ s: String) -> String { JSONValue.literal(s) }
}
