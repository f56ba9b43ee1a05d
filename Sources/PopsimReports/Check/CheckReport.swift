import PopsimCore

/// The text `check` prints: one line per scenario and strategy, diffs under failures, and the
/// final line `N passed, N failed` (convention 20).
public enum CheckReport {
    public static func line(_ o: CheckOutcome) -> String {
        let label = o.scenario + (o.strategy.map { " [\($0)]" } ?? "")
        switch o.verdict {
        case .pass: return "PASS: \(label)\n"
        case .differs(let diff): return "FAIL: \(label)\n" + diff
        case .missing: return "FAIL: \(label)\n" + missingAdvice(o) + "\n"
        case .error: return "FAIL: \(label)\n"
        case .skipped(let why): return "SKIP: \(label) (\(why))\n"
        }
    }

    static func missingAdvice(_ o: CheckOutcome) -> String {
        "no expected timeline \(o.goldenPath ?? ""): record one with "
            + "'popsim check \(o.scenario) --strategy \(o.strategy ?? "<name>") --update' and review it"
    }

    public static func summary(passed: Int, failed: Int, skipped: Int = 0) -> String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "") + "\n"
    }
}
