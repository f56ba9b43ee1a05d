import PopsimCore

/// The text `check` prints: one line per scenario and strategy, diffs under failures, and the
/// final line `N passed, N failed` (convention 20).
public enum CheckReport {
    public static func line(_ o: CheckOutcome, style: TextStyle = .plain) -> String {
        let label = TerminalText.safe(o.scenario + (o.shownStrategy.map { " [\($0)]" } ?? ""))
        let evidence: String = (o.brokenProperties + o.notedProperties).map { (v: PropertyVerdict) -> String in "  " + VerdictText.line(v) + "\n" }.joined()
        let notes: String = o.notedProperties.map { (v: PropertyVerdict) -> String in "  " + VerdictText.line(v) + "\n" }.joined()
        let fail: String = style.paint("FAIL:", .red) + " " + label + (brokenPhrase(o).map { ": " + $0 } ?? "") + "\n" + evidence
        switch o.verdict {
        case .pass where o.brokenProperties.isEmpty: return style.paint("PASS:", .green) + " \(label)\n" + notes
        case .pass: return fail
        case .differs(let diff): return fail + paint(diff, style)
        case .missing: return fail + missingAdvice(o) + "\n"
        case .error: return fail
        case .unresolved(let why): return fail + TerminalText.safe(why) + "\n"
        case .skipped(let why): return "SKIP: \(label) (\(why))\n"
        }
    }

    /// A unified diff's removed lines red, added green, hunk headers cyan.
    static func paint(_ diff: String, _ style: TextStyle) -> String {
        guard style == .color else { return diff }
        return diff.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let text = String(line)
            if text.hasPrefix("@@") { return style.paint(text, .cyan) }
            if text.hasPrefix("-") { return style.paint(text, .red) }
            if text.hasPrefix("+") { return style.paint(text, .green) }
            return text
        }.joined(separator: "\n")
    }

    /// `property 'a before b' fails`: what broke, for the FAIL line and JUnit; nil when nothing did.
    static func brokenPhrase(_ o: CheckOutcome) -> String? {
        let names = o.brokenProperties.map { "'" + TerminalText.safe($0.expectation.text) + "'" }
        switch names.count {
        case 0: return nil
        case 1: return "property \(names[0]) fails"
        default: return "properties \(names.joined(separator: ", ")) fail"
        }
    }

    static func missingAdvice(_ o: CheckOutcome) -> String {
        "no expected timeline \(o.goldenPath ?? ""): record one with "
            + "'popsim check \(o.scenario) --strategy \(o.recordStrategy ?? o.strategy ?? "<name>")\(o.recordArguments) --update' and review it"
    }

    public static func summary(passed: Int, failed: Int, skipped: Int = 0) -> String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "") + "\n"
    }
}
