import PopsimCore

/// JUnit XML for CI servers: one testcase per scenario and strategy, the diff as failure text.
///
/// Contract: a single `<testsuites>` with one `<testsuite name="popsim check">`; `classname` is the
/// scenario path, `name` the strategy; failures carry the diff (or the missing-golden advice),
/// errors carry the error lines (`describe` words them, as stderr does). `time` is each check's
/// wall-clock seconds (CI servers chart it): the one value in popsim's output that differs from
/// run to run.
public enum JUnitReport {
    public static func render(_ outcomes: [CheckOutcome], describe: (PopsimError) -> [String]) -> String {
        let failures = outcomes.filter {
            if case .differs = $0.verdict { return true }
            if case .unresolved = $0.verdict { return true }
            return $0.verdict == .missing || ($0.verdict == .pass && !$0.brokenProperties.isEmpty)
        }.count
        let errors = outcomes.filter { if case .error = $0.verdict { return true }; return false }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        let total = seconds(outcomes.reduce(0) { $0 + $1.elapsedMs })
        out += "  <testsuite name=\"popsim check\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(total)\">\n"
        for o in outcomes {
            out += "    <testcase classname=\"\(escape(o.scenario))\" name=\"\(escape(o.strategy ?? "load"))\" time=\"\(seconds(o.elapsedMs))\""
            let broken = o.brokenProperties.map(VerdictText.line).joined(separator: "\n")
            switch o.verdict {
            case .pass where o.brokenProperties.isEmpty:
                out += "/>\n"
            case .pass:
                out += ">\n      <failure message=\"\(escape(CheckReport.brokenPhrase(o) ?? ""))\">"
                    + escape(broken) + "</failure>\n    </testcase>\n"
            case .differs(let diff):
                let properties = CheckReport.brokenPhrase(o).map { "; " + $0 } ?? ""
                let message = "timeline differs from \(o.goldenPath ?? "")" + properties
                out += ">\n      <failure message=\"\(escape(message))\">"
                    + escape(broken.isEmpty ? diff : broken + "\n" + diff) + "</failure>\n    </testcase>\n"
            case .missing:
                out += ">\n      <failure message=\"no expected timeline\">" + escape(CheckReport.missingAdvice(o))
                    + "</failure>\n    </testcase>\n"
            case .unresolved(let why):
                out += ">\n      <failure message=\"golden cannot be checked\">" + escape(why) + "</failure>\n    </testcase>\n"
            case .skipped(let why):
                out += ">\n      <skipped message=\"\(escape(why))\"/>\n    </testcase>\n"
            case .error(let error):
                let lines = describe(error)
                out += ">\n      <error message=\"\(escape(lines.first ?? "error"))\">" + escape(lines.joined(separator: "\n"))
                    + "</error>\n    </testcase>\n"
            }
        }
        return out + "  </testsuite>\n</testsuites>\n"
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// Milliseconds as seconds with three decimals.
    static func seconds(_ ms: Int) -> String {
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
