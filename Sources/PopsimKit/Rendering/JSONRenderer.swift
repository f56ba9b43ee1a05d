/// The JSON report of one run, for machines: design.md §6 with keys in a fixed order.
///
/// Written by hand rather than with `JSONEncoder`: `.sortedKeys` is stable but alphabetical,
/// which is not the order the design fixes (`t`, `event`, `popup`, `reason`). One timeline entry
/// per line, so that diffs of saved output stay readable; ends with a newline.
public enum JSONRenderer {
    public static func render(_ result: RunResult) -> String {
        var out = "{\"popsim\": 1, \"scenario\": " + string(result.scenario.name)
        out += ", \"strategy\": " + string(result.strategy) + ", \"options\": {"
        out += result.options.settings.map { s in
            let value: String
            switch s.value {
            case .integer(let n): value = String(n)
            case .text(let t): value = string(t)
            }
            return string(s.name) + ": " + value
        }.joined(separator: ", ")
        out += "},\n  \"timeline\": ["
        let timeline = result.timeline
        for (i, entry) in timeline.entries.enumerated() {
            out += (i == 0 ? "\n" : ",\n") + "    {\"t\": \(entry.t), \"event\": \"\(entry.event.rawValue)\""
            if let name = timeline.subjectName(entry) {
                out += (entry.event == .nav || entry.reason == .notOnStack ? ", \"screen\": " : ", \"popup\": ") + string(name)
            }
            if let reason = entry.reason { out += ", \"reason\": \"\(reason.rawValue)\"" }
            out += "}"
        }
        out += timeline.entries.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"summary\": " + summary(Summary(result), result: result) + "}\n"
        return out
    }

    static func summary(_ s: Summary, result: RunResult) -> String {
        var out = "{\"shown\": \(s.shown), \"dropped\": \(s.dropped), \"pending\": \(s.pending), "
        out += "\"warnings\": \(s.warnings), \"end\": \(s.end), \"pendingPopups\": ["
        out += result.pending.map { string(result.scenario.name(of: $0)) }.joined(separator: ", ") + "], \"popups\": ["
        out += s.popups.map { p in
            "{\"popup\": \(string(p.popup)), \"enqueued\": \(p.enqueued), \"firstShown\": "
                + (p.firstShown.map(String.init) ?? "null") + ", \"wait\": " + (p.wait.map(String.init) ?? "null") + "}"
        }.joined(separator: ", ")
        return out + "]}"
    }

    /// A JSON string literal; non-ASCII is written as is (the output is UTF-8).
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4, with: "0")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
