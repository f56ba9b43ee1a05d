import PopsimCore

/// The fit as text for a terminal, or as markdown for a pull request or an issue.
public enum FitText {
    /// `width`: the terminal's, for the what-if's tables (nil: one block however wide).
    public static func render(_ r: FitReport, width: Int? = nil) -> String { lines(r, markdown: false, width: width).joined(separator: "\n") + "\n" }

    public static func markdown(_ r: FitReport) -> String { lines(r, markdown: true, width: nil).joined(separator: "\n") + "\n" }

    /// Without a what-if: a line per model ranked (the best first) with its counts on fit and
    /// held-out users and whether it fits (`FitReport.fitting`).
    public static func csv(_ r: FitReport) -> String {
        let fitting = Set(r.fitting.map(\.candidate.label))
        var out = "model,fits,fit users,agreeing,timed,held out,agreeing held out,timed held out\n"
        for f in r.ranking {
            out += [CSVField.escape(f.candidate.label), fitting.contains(f.candidate.label) ? "yes" : "no", String(f.fit.users), String(f.fit.agreeing), String(f.fit.timed),
                    String(f.test.users), String(f.test.agreeing), String(f.test.timed)].joined(separator: ",") + "\n"
        }
        return out
    }

    public static func percent(_ s: FitScore) -> String { ReplayReport.percent(s.agreeing, of: s.users) }

    static func lines(_ r: FitReport, markdown md: Bool, width: Int?) -> [String] {
        var out: [String] = []
        let trace = md ? CompareMarkdown.escape(r.trace) : TerminalText.safe(r.trace)
        let title = "popsim fit: \(trace), \(r.users) users: \(r.fitUsers) fitted on, \(r.testUsers) held out (--holdout \(r.holdout))"
        out.append(md ? "### " + title : title)
        if md { out.append("") }
        out.append("\(r.evaluations) evaluations of \(r.searchedStarts) starts (budget \(r.budget), seed \(r.seed))"
                   + (r.shard.map { ", shard \($0)" } ?? ""))
        if let why = r.incomplete { out.append("INCOMPLETE: \(why); the best so far is below") }
        out.append("")
        guard let best = r.best else {
            if let shard = r.shard, r.results.isEmpty, r.incomplete == nil {
                out.append("shard \(shard) holds none of the \(r.starts.count) starts: nothing to search here (fit --merge puts the shards together)")
                return out
            }
            out.append(r.incomplete == nil ? "no candidate could run on this catalog" : "stopped before any candidate was scored on every user")
            return out
        }
        out.append(md ? "**best**: " + CompareMarkdown.code(best.candidate.label) : "best: " + TerminalText.safe(best.candidate.label))
        out.append("")
        let rows: [[String]] = [
            ["", "fit users", "held out"],
            ["agrees with production", "\(percent(best.fit)) (\(best.fit.agreeing)/\(best.fit.users))",
             best.test.users > 0 ? "\(percent(best.test)) (\(best.test.agreeing)/\(best.test.users))" : "-"],
            [ReplayFigure.timingLabel, "\(ReplayReport.percent(best.fit.timed, of: best.fit.users)) (\(best.fit.timed)/\(best.fit.users))",
             best.test.users > 0 ? "\(ReplayReport.percent(best.test.timed, of: best.test.users)) (\(best.test.timed)/\(best.test.users))" : "-"],
            ["shows matched", ReplayReport.percent(best.fit.matched * 2, of: best.fit.shows),
             best.test.users > 0 ? ReplayReport.percent(best.test.matched * 2, of: best.test.shows) : "-"],
        ]
        out += table(rows, markdown: md)
        if !r.runnersUp.isEmpty {
            out.append("")
            out.append(md ? "**runners-up**" : "runners-up")
            if md { out.append("") }
            var rows = [["", "fit users", "held out"]]
            rows += r.runnersUp.map { [md ? CompareMarkdown.code($0.candidate.label) : TerminalText.safe($0.candidate.label), percent($0.fit), $0.test.users > 0 ? percent($0.test) : "-"] }
            out += table(rows, markdown: md)
        }
        let scored = r.scored
        if !scored.isEmpty {
            out.append("")
            out.append(md ? "**also scored** (--strategy)" : "also scored (--strategy)")
            if md { out.append("") }
            var rows = [["", "fit users", "held out"]]
            rows += scored.map { s in
                [md ? CompareMarkdown.code(s.label) : TerminalText.safe(s.label), s.finalist.map { percent($0.fit) } ?? "cannot run", s.finalist.map { $0.test.users > 0 ? percent($0.test) : "-" } ?? "-"]
            }
            out += table(rows, markdown: md)
        }
        if !best.misses.isEmpty {
            out.append("")
            out.append(md ? "**what the best gets wrong** (the first users by row)" : "what the best gets wrong (the first users by row)")
            if md { out.append("") }
            for m in best.misses { out.append((md ? "- " : "  ") + miss(m, markdown: md)) }
        }
        var notes: [String] = []
        if r.ties > 0 {
            notes.append("\(r.ties) of the runners-up score as the best on the fit users (as many agree, in order and in timing, as many shows matched): "
                         + "these users cannot tell them apart")
        }
        if r.overfits {
            notes.append("warning: agreement on held-out users (\(percent(best.test))) is more than \(FitReport.overfitPoints) points from fit users' "
                         + "(\(percent(best.fit))): the model may be fitted to these users, not to the app")
        }
        if r.whatIf == nil, let floors = r.floors {
            let n = r.fitting.count
            notes.append("\(n) model\(n == 1 ? "" : "s") fit: agreement on \(floors.users) users at least \(FitWhatIf.decimal(floors.order / 10))% in order "
                         + "and \(FitWhatIf.decimal(floors.timing / 10))% in timing (the lower ends of the best's 95% intervals); --sweep asks a what-if of each")
        }
        if let output = r.output { notes.append("fitted catalog: \(output)") }
        if !notes.isEmpty {
            out.append("")
            out += notes.map { md ? "- " + $0 : $0 }
        }
        if let whatIf = r.whatIf {
            out.append("")
            out += FitWhatIfText.lines(whatIf, floors: r.floors, markdown: md, width: width)
        }
        return out
    }

    /// `user u17 (row 45): show 3: production upgrade at 1200 ms, the model campaign at 1300 ms`.
    /// In markdown, the trace's user id and the catalog's popup names are escaped: a job summary
    /// never renders a trace's text as HTML.
    static func miss(_ m: FitMiss, markdown md: Bool = false) -> String {
        let safe = { (s: String) -> String in md ? CompareMarkdown.escape(s) : TerminalText.safe(s) }
        let who = "user \(safe(m.user.id)) (row \(m.user.row))"
        if m.unsettled { return who + ": the model's run did not settle" }
        func side(_ s: FitMiss.Show?) -> String { s.map { "\(safe($0.popup)) at \($0.ms) ms" } ?? "nothing" }
        return who + ": show \(m.index): production \(side(m.production)), the model \(side(m.model))"
    }

    /// Rows as aligned columns (the first left, the others right), or a markdown table.
    static func table(_ rows: [[String]], markdown md: Bool) -> [String] {
        if md {
            var out = ["| " + rows[0].joined(separator: " | ") + " |", "|" + rows[0].map { _ in "---" }.joined(separator: "|") + "|"]
            out += rows.dropFirst().map { "| " + $0.joined(separator: " | ") + " |" }
            return out
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            "  " + row.enumerated().map { c, cell in
                c == 0 ? cell + String(repeating: " ", count: widths[0] - cell.count) : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "   ")
        }.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
    }
}
