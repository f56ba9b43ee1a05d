import PopsimCore

/// `check --format json`: one object per scenario and strategy, then the counts; for CI systems
/// that read JSON rather than JUnit. `describe` words an error as stderr does.
public enum CheckJSON {
    public static func render(_ outcomes: [CheckOutcome], describe: (PopsimError) -> [String]) -> String {
        var passed = 0, failed = 0, skipped = 0
        var items: [String] = []
        for o in outcomes {
            var item = "  {\"scenario\": \(s(o.scenario)), \"strategy\": \(o.strategy.map(s) ?? "null"), "
                + "\"golden\": \(o.goldenPath.map(s) ?? "null"), \"verdict\": "
            switch o.verdict {
            case .pass where !o.brokenProperties.isEmpty:
                failed += 1
                item += "\"broken\""
            case .pass:
                passed += 1
                item += "\"pass\""
            case .differs(let diff):
                failed += 1
                item += "\"differs\", \"diff\": \(s(diff))"
            case .missing:
                failed += 1
                item += "\"missing\", \"advice\": \(s(CheckReport.missingAdvice(o)))"
            case .error(let error):
                failed += 1
                item += "\"error\", \"errors\": [" + describe(error).map(s).joined(separator: ", ") + "]"
            case .unresolved(let why):
                failed += 1
                item += "\"unresolved\", \"advice\": \(s(why))"
            case .skipped(let why):
                skipped += 1
                item += "\"skipped\", \"reason\": \(s(why))"
            }
            if !o.brokenProperties.isEmpty {
                item += ", \"brokenProperties\": [" + o.brokenProperties.map(JSONRenderer.verdict).joined(separator: ", ") + "]"
            }
            items.append(item + "}")
        }
        return "{\"popsim\": 1, \"passed\": \(passed), \"failed\": \(failed), \"skipped\": \(skipped), \"results\": ["
            + (items.isEmpty ? "" : "\n" + items.joined(separator: ",\n") + "\n") + "]}\n"
    }

    static func s(_ text: String) -> String { JSONValue.literal(text) }
}
