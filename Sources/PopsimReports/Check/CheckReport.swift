import PopsimCore

/// The text `check` prints: one line per scenario and strategy, diffs under failures, and the
/// final line `N passed, N failed` (convention 20).
public enum CheckReport {
    public static func line(_ o: CheckOutcome, style: TextStyle = .plain) -> String {
        let label = TerminalText.safe(o.scenario + (o.shownLabel.map { " [\($0)]" } ?? ""))
        let evidence: String = (o.brokenProperties + o.notedProperties).map { (v: PropertyVerdict) -> String in "  " + VerdictText.line(v) + "\n" }.joined()
        let notes: String = o.notedProperties.map { (v: PropertyVerdict) -> String in "  " + VerdictText.line(v) + "\n" }.joined()
        let fail: String = style.paint("FAIL:", .red) + " " + label + (brokenPhrase(o).map { ": " + $0 } ?? "") + "\n" + evidence
        switch o.verdict {
        case .pass where o.xfailed:
            return style.paint("XFAIL:", .yellow) + " \(label): " + knownPhrase(o) + "\n" + notes
        case .pass where o.propertiesOnly: return style.paint("PASS:", .green) + " \(label) (properties only: no golden)\n" + notes
        case .pass where o.passed: return style.paint("PASS:", .green) + " \(label)\n" + notes
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

    /// `property 'a before b' fails`: what broke, for the FAIL line and JUnit (a property that
    /// held though known to fail included); nil when nothing did.
    static func brokenPhrase(_ o: CheckOutcome) -> String? {
        let names = o.brokenProperties.map { "'" + TerminalText.safe($0.expectation.text) + "'" }
        var parts: [String] = []
        switch names.count {
        case 0: break
        case 1: parts.append("property \(names[0]) fails")
        default: parts.append("properties \(names.joined(separator: ", ")) fail")
        }
        parts += o.unexpectedPasses.map { unexpectedPassPhrase($0, o) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// `property 'x' holds, though its knownToFail names swiftmessages (XPASS): …`.
    static func unexpectedPassPhrase(_ v: PropertyVerdict, _ o: CheckOutcome) -> String {
        let name = TerminalText.safe([o.label, o.strategy].compactMap { $0 }.first { v.expectation.knownToFail.contains($0) } ?? "")
        return "property '\(TerminalText.safe(v.expectation.text))' holds, though its knownToFail names \(name) (XPASS): "
            + "take \(name) out of it"
    }

    /// `property 'x' fails, as its knownToFail says`: the XFAIL line's words.
    static func knownPhrase(_ o: CheckOutcome) -> String {
        let names = o.knownFailures.map { "'" + TerminalText.safe($0.expectation.text) + "'" }
        return (names.count == 1 ? "property \(names[0]) fails" : "properties \(names.joined(separator: ", ")) fail") + ", as its knownToFail says"
    }

    static func missingAdvice(_ o: CheckOutcome) -> String {
        "no expected timeline \(o.goldenPath ?? ""): record one with "
            + "'\(o.invocation) check \(o.scenario) --strategy \(o.recordStrategy ?? o.strategy ?? "<name>")\(o.recordArguments) --update' and review it"
    }

    /// The commands that record the timelines of the outcomes that differ or have none (what
    /// `--update` settles; a broken property it does not): one per strategy, naming its
    /// scenarios, in the order they came. Empty when there is nothing to accept.
    public static func acceptCommands(_ outcomes: [CheckOutcome]) -> [String] {
        var order: [String] = []
        var scenarios: [String: [String]] = [:]
        for o in outcomes {
            switch o.verdict {
            case .differs, .missing: break
            default: continue
            }
            let strategy = " --strategy " + shellWord(o.recordStrategy ?? o.strategy ?? "") + o.recordArguments
            if scenarios[strategy] == nil { order.append(strategy) }
            if !(scenarios[strategy]?.contains(o.scenario) ?? false) { scenarios[strategy, default: []].append(o.scenario) }
        }
        let invocation = outcomes.first?.invocation ?? "popsim"
        return order.map { s in invocation + " check " + (scenarios[s] ?? []).map(shellWord).joined(separator: " ") + s + " --update" }
    }

    /// The lines that end a failing check when `--update` would settle some of it (Jest's "run
    /// with -u"): the commands to run where the goldens live, after reviewing the diffs.
    public static func acceptAdvice(_ outcomes: [CheckOutcome]) -> String {
        let commands = acceptCommands(outcomes)
        guard !commands.isEmpty else { return "" }
        return "to accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):\n"
            + commands.map { "  " + TerminalText.safe($0) + "\n" }.joined()
    }

    /// `word` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellWord(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy(shellSafe.contains) { return word }
        return "'" + word.replacingOccurrences("'", "'\\''") + "'"
    }

    /// Characters a shell word may hold unquoted.
    private static let shellSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+-@%")

    public static func summary(passed: Int, failed: Int, skipped: Int = 0, xfailed: Int = 0) -> String {
        "\(passed) passed, \(failed) failed" + (xfailed > 0 ? ", \(xfailed) xfailed" : "") + (skipped > 0 ? ", \(skipped) skipped" : "") + "\n"
    }
}
