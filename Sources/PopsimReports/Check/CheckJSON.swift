import PopsimCore

/// `check --format json`: one object per scenario and strategy, then the counts; for CI systems
/// that read JSON rather than JUnit. `describe` words an error as stderr does.
public enum CheckJSON {
    public static func render(_ outcomes: [CheckOutcome], describe: (PopsimError) -> [String]) -> String {
        var passed = 0, failed = 0, skipped = 0, xfailed = 0
        var items: [String] = []
        for o in outcomes {
            var item = JSONObjectWriter()
            item.add("scenario", o.scenario)
            item.add("label", o.shownLabel)
            item.add("strategy", o.strategy)
            item.add("golden", o.goldenPath)
            switch o.verdict {
            case .pass where !o.brokenProperties.isEmpty:
                failed += 1
                item.add("verdict", "broken")
            case .pass where !o.unexpectedPasses.isEmpty:
                failed += 1
                item.add("verdict", "xpass")
                item.add("advice", CheckReport.brokenPhrase(o) ?? "")
            case .pass where o.xfailed:
                xfailed += 1
                item.add("verdict", "xfail")
            case .pass:
                passed += 1
                item.add("verdict", "pass")
                if o.propertiesOnly { item.add("propertiesOnly", true) }
            case .differs(let diff):
                failed += 1
                item.add("verdict", "differs")
                item.add("diff", diff)
            case .missing:
                failed += 1
                item.add("verdict", "missing")
                item.add("advice", CheckReport.missingAdvice(o))
            case .error(let error):
                failed += 1
                item.add("verdict", "error")
                item.add("errors", strings: describe(error))
            case .unresolved(let why):
                failed += 1
                item.add("verdict", "unresolved")
                item.add("advice", why)
            case .skipped(let why):
                skipped += 1
                item.add("verdict", "skipped")
                item.add("reason", why)
            }
            if !o.brokenProperties.isEmpty {
                item.add("brokenProperties", json: JSONObjectWriter.array(o.brokenProperties.map(JSONRenderer.verdict)))
            }
            if !o.knownFailures.isEmpty {
                item.add("knownFailures", json: JSONObjectWriter.array(o.knownFailures.map(JSONRenderer.verdict)))
            }
            if !o.unexpectedPasses.isEmpty {
                item.add("unexpectedPasses", json: JSONObjectWriter.array(o.unexpectedPasses.map(JSONRenderer.verdict)))
            }
            items.append(item.closed)
        }
        var out = JSONObjectWriter()
        out.add("popsim", 1)
        out.add("passed", passed)
        out.add("failed", failed)
        out.add("xfailed", xfailed)
        out.add("skipped", skipped)
        out.add("results", json: JSONObjectWriter.lines(items, indent: "  ", closing: ""))
        return out.closed + "\n"
    }

}
