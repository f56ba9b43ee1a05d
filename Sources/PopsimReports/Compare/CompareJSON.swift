import PopsimCore

/// `compare --format json`: the summary for machines, keys in a fixed order.
public enum CompareJSON {
    public static func render(_ c: Comparison) -> String {
        var out = "{\"popsim\": 1, \"scenario\": \(s(c.scenario.name)), \"file\": \(s(c.scenario.file)), "
        out += "\"reference\": \(s(c.runs[0].label)),\n  \"strategies\": ["
        for (i, run) in c.runs.enumerated() {
            let m = run.metrics
            out += (i == 0 ? "\n" : ",\n") + "    {\"label\": \(s(run.label)), \"strategy\": \(s(run.result.strategy)), "
            out += "\"options\": {" + run.result.options.settings.map { o in
                switch o.value {
                case .integer(let v): return "\(s(o.name)): \(v)"
                case .text(let t): return "\(s(o.name)): \(s(t))"
                }
            }.joined(separator: ", ") + "}, "
            out += "\"shown\": \(m.shown), \"dropped\": \(m.dropped), \"lost\": \(m.lost), \"overlaps\": \(m.overlaps), "
            out += "\"pending\": \(m.pending), \"lastGone\": \(n(m.lastGone)), \"longestWait\": \(n(m.longestWait)), "
            out += "\"meanWait\": \(n(m.meanWait)), \"popups\": ["
            out += c.popups.map { name in
                let o = m.outcome(of: name)
                return "{\"popup\": \(s(name)), \"firstShown\": \(n(o.firstShown)), \"whyNot\": \(o.whyNot.map(s) ?? "null"), "
                    + "\"wait\": \(n(o.wait)), \"preempted\": \(o.preempted)}"
            }.joined(separator: ", ")
            out += "]"
            if i > 0, let d = c.divergences[i - 1] {
                out += ", \"divergence\": {\"t\": \(d.t), \"reference\": [\(d.reference.map(s).joined(separator: ", "))], "
                    + "\"this\": [\(d.other.map(s).joined(separator: ", "))]}"
            } else if i > 0 {
                out += ", \"divergence\": null"
            }
            if !run.verdicts.isEmpty { out += ", \"expect\": [" + run.verdicts.map(JSONRenderer.verdict).joined(separator: ", ") + "]" }
            out += "}"
        }
        return out + "\n  ]}\n"
    }

    static func s(_ text: String) -> String { JSONRenderer.string(text) }

    static func n(_ value: Int?) -> String { value.map(String.init) ?? "null" }
}
