import PopsimCore

/// `check --format github`: GitHub Actions workflow commands (`::error file=…,line=…::…`), one per
/// failure, so that each appears on the pull request at the line it is about: a broken property
/// at its line in `expect`, a timeline that differs at the golden's first changed line, a golden
/// that is missing or that nothing resolves at the scenario or the golden. Printed after the
/// text report's line for the same outcome; `describe` words an error as stderr does.
///
/// Contract: values are escaped as the runner expects (`%`, CR and LF in messages; also `:` and
/// `,` in properties), so a message is one command whatever it holds; other control characters
/// and bidi overrides are written as visible escapes (`\u{1B}`).
public enum GitHubAnnotations {
    public static func commands(_ o: CheckOutcome, describe: (PopsimError) -> [String]) -> String {
        let title = o.scenario + (o.shownLabel.map { " [\($0)]" } ?? "")
        var out = ""
        for broken in o.brokenProperties {
            out += command(file: o.scenario, line: broken.expectation.location.line, title: title,
                           message: VerdictText.line(broken))
        }
        for held in o.unexpectedPasses {
            out += command(file: o.scenario, line: held.expectation.location.line, title: title,
                           message: CheckReport.unexpectedPassPhrase(held, o))
        }
        switch o.verdict {
        case .pass, .skipped:
            break
        case .differs(let diff):
            out += command(file: o.goldenPath ?? o.scenario, line: firstChangedLine(diff), title: title,
                           message: "timeline differs from \(o.goldenPath ?? "its golden")\n" + diff)
        case .missing:
            out += command(file: o.scenario, line: nil, title: title, message: CheckReport.missingAdvice(o))
        case .unresolved(let why):
            out += command(file: o.goldenPath ?? o.scenario, line: nil, title: title, message: why)
        case .error(let error):
            out += command(file: o.scenario, line: errorLine(error), title: title, message: describe(error).joined(separator: "\n"))
        }
        return out
    }

    /// `::error file=F,line=L,title=T::MESSAGE`.
    static func command(file: String, line: Int?, title: String, message: String) -> String {
        var properties = "file=" + property(file)
        if let line, line > 0 { properties += ",line=\(line)" }
        properties += ",title=" + property(title)
        return "::error " + properties + "::" + data(message) + "\n"
    }

    /// The first line of the golden a unified diff changes (`@@ -L,N …`; past the end for an
    /// insertion at the end).
    static func firstChangedLine(_ diff: String) -> Int? {
        let lines = diff.split(separator: "\n", omittingEmptySubsequences: false)
        guard let h = lines.firstIndex(where: { $0.hasPrefix("@@ -") }), var line = Int(lines[h].dropFirst(4).prefix { $0.isNumber }) else { return nil }
        for text in lines[(h + 1)...] {
            if text.hasPrefix("-") || text.hasPrefix("+") { break }
            line += 1
        }
        return max(1, line)
    }

    static func errorLine(_ error: PopsimError) -> Int? {
        guard case .input(let errors) = error else { return nil }
        return errors.errors.first?.location?.line
    }

    /// A message: each line's control and bidirectional characters made visible first (a path
    /// or a name may hold ESC, BEL or a bidi override: nothing reaches the log raw; issue 41),
    /// then the runner's own escapes.
    static func data(_ text: String) -> String {
        let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.safe(String($0)) }.joined(separator: "\n")
        return safe.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    static func property(_ text: String) -> String {
        data(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }
}

extension String {
    /// Every `target` replaced by `replacement` (no Foundation).
    package func replacingAll(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
