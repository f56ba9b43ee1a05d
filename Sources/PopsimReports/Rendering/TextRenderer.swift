import PopsimCore

/// The text report of one run, for people: a header, the timeline, a summary.
public enum TextRenderer {
    public static func render(_ result: RunResult, style: TextStyle = .plain) -> String {
        var writer = ByteWriter()
        render(result, style: style, into: &writer)
        return writer.text
    }

    /// `verdicts`: the run's, when the caller judged them already (they are judged once a run).
    public static func render(_ result: RunResult, style: TextStyle = .plain, verdicts: [PropertyVerdict]? = nil,
                              into writer: inout ByteWriter) {
        writer.write(header(result))
        if result.scenario.isUncertain { writer.write(NominalVariantNote.text(result.scenario) + "\n") }
        TimelineText.render(result.timeline, style: style, into: &writer)
        writer.write("\n" + summary(Summary(result), result: result))
        writer.write(VerdictText.render(verdicts ?? PropertyJudge.verdicts(result)))
    }

    /// `name · strategy · options` on one line when it fits in 80 columns; otherwise the options
    /// go on indented lines of their own (a policy has 30).
    static func header(_ result: RunResult) -> String {
        OptionsText.block(result.options, head: "\(TerminalText.safe(result.scenario.name)) · \(TerminalText.safe(result.strategy))",
                          separator: " · ", indent: "  ")
    }

    static func summary(_ s: Summary, result: RunResult) -> String {
        var out = "summary: \(s.shown) shown, \(s.dropped) dropped, \(s.pending) pending, "
            + "\(s.warnings) warning\(s.warnings == 1 ? "" : "s"), end \(s.end) ms\n"
        if !result.pending.isEmpty {
            // Each popup once, in order of first appearance, with its count when queued several times.
            // A popup held back by a rule says which (`promo (held back by the cooldown)`).
            var counts = [Int](repeating: 0, count: result.scenario.popups.count)
            var order: [PopupID] = []
            var held = [HoldReason?](repeating: nil, count: result.scenario.popups.count)
            for (i, p) in result.pending.enumerated() {
                if counts[Int(p.index)] == 0 { order.append(p) }
                counts[Int(p.index)] += 1
                if i < result.heldBack.count, held[Int(p.index)] == nil { held[Int(p.index)] = result.heldBack[i] }
            }
            out += "pending: " + order.map { p in
                TerminalText.safe(result.scenario.name(of: p)) + (counts[Int(p.index)] > 1 ? " ×\(counts[Int(p.index)])" : "")
                    + (held[Int(p.index)].map { " (held back by \($0.phrase))" } ?? "")
            }.joined(separator: ", ") + "\n"
        }
        if !result.onScreen.isEmpty {
            out += "on screen at the end: " + result.onScreen.map { TerminalText.safe(result.scenario.name(of: $0)) }.joined(separator: ", ") + "\n"
        }
        if result.eventsNotRun > 0, let until = result.scenario.until {
            let n = result.eventsNotRun
            out += "not run: \(n) script event\(n == 1 ? "" : "s") after until (\(until) ms)\n"
        }
        guard !s.popups.isEmpty else { return out }
        let rows = s.popups.map { p in
            [TerminalText.safe(p.popup), String(p.enqueued), p.firstShown.map(String.init) ?? "never", p.wait.map(String.init) ?? "-"]
        }
        let header = ["popup", "enqueued", "first shown", "wait"]
        let widths = (0..<4).map { c in max(header[c].count, rows.map { $0[c].count }.max() ?? 0) }
        for row in [header] + rows {
            var line = row[0].rightPadded(to: widths[0])
            for c in 1..<4 { line += "  " + row[c].leftPadded(to: widths[c]) }
            out += line + "\n"
        }
        return out
    }
}
