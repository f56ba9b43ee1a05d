import PopsimCore

/// `compare --format json`: the summary for machines, keys in a fixed order.
public enum CompareJSON {
    public static func render(_ c: Comparison) -> String {
        var out = JSONObjectWriter()
        out.add("popsim", 1)
        out.add("scenario", c.scenario.name)
        out.add("file", c.scenario.file)
        out.add("reference", c.runs[0].label)
        out.breakLine(indent: "  ")
        out.add("strategies", json: JSONObjectWriter.lines(c.runs.indices.map { strategy(c, $0) }, indent: "    ", closing: "  "))
        return out.closed + "\n"
    }

    static func strategy(_ c: Comparison, _ i: Int) -> String {
        let run = c.runs[i], m = run.metrics
        var out = JSONObjectWriter()
        out.add("label", run.label)
        out.add("strategy", run.result.strategy)
        out.add("options", json: run.result.options.json)
        out.add("shown", m.shown)
        out.add("dropped", m.dropped)
        out.add("lost", m.lost)
        out.add("overlaps", m.overlaps)
        out.add("pending", m.pending)
        out.add("lastGone", m.lastGone)
        out.add("longestWait", m.longestWait)
        out.add("meanWait", m.meanWait)
        out.add("popups", json: JSONObjectWriter.array(c.popups.map { name in
            let o = m.outcome(of: name)
            var popup = JSONObjectWriter()
            popup.add("popup", name)
            popup.add("firstShown", o.firstShown)
            popup.add("whyNot", o.whyNot)
            popup.add("wait", o.wait)
            popup.add("preempted", o.preempted)
            return popup.closed
        }))
        if i > 0, let d = c.divergences[i - 1] {
            var divergence = JSONObjectWriter()
            divergence.add("t", d.t)
            divergence.add("reference", strings: d.reference)
            divergence.add("this", strings: d.other)
            out.add("divergence", json: divergence.closed)
        } else if i > 0 {
            out.add("divergence", json: "null")
        }
        if !run.verdicts.isEmpty { out.add("expect", json: JSONObjectWriter.array(run.verdicts.map(JSONRenderer.verdict))) }
        return out.closed
    }
}
