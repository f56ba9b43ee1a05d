import PopsimCore

/// JUnit XML for CI servers: one testcase per scenario and strategy, the diff as failure text.
///
/// Contract: a single `<testsuites>` with one `<testsuite name="popsim check">`; `classname` is the
/// scenario path, `name` the golden's label (`CheckOutcome.shownLabel`, as every other report
/// names it), made unique within its class (` (2)`, ` (3)` after a repeat: CI servers merge
/// testcases of one name); failures carry the diff (or the missing-golden advice),
/// errors carry the error lines (`describe` words them, as stderr does). `time` is each check's
/// wall-clock seconds (CI servers chart it): the one value in popsim's output that differs from
/// run to run.
public enum JUnitReport {
    public static func render(_ outcomes: [CheckOutcome], describe: (PopsimError) -> [String]) -> String {
        let failures = outcomes.filter {
            if case .differs = $0.verdict { return true }
            if case .unresolved = $0.verdict { return true }
            return $0.verdict == .missing || ($0.verdict == .pass && !$0.passed)
        }.count
        let errors = outcomes.filter { if case .error = $0.verdict { return true }; return false }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        let total = seconds(outcomes.reduce(0) { $0 + $1.elapsedMs })
        out += "  <testsuite name=\"popsim check\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(total)\">\n"
        let names = uniqueNames(outcomes)
        for (o, name) in zip(outcomes, names) {
            out += "    <testcase classname=\"\(escape(o.scenario))\" name=\"\(escape(name))\" time=\"\(seconds(o.elapsedMs))\""
            let broken = o.brokenProperties.map(VerdictText.line).joined(separator: "\n")
            switch o.verdict {
            case .pass where o.xfailed:
                out += ">\n      <skipped message=\"\(escape("xfail: " + CheckReport.knownPhrase(o)))\"/>\n    </testcase>\n"
            case .pass where o.propertiesOnly:
                out += ">\n      <system-out>properties only: no golden</system-out>\n    </testcase>\n"
            case .pass where o.passed:
                out += "/>\n"
            case .pass:
                out += ">\n      <failure message=\"\(escape(CheckReport.brokenPhrase(o) ?? ""))\">"
                    + escape(broken.isEmpty ? CheckReport.brokenPhrase(o) ?? "" : broken) + "</failure>\n    </testcase>\n"
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

    /// Each outcome's testcase name: its label, with ` (N)` when its class had that name already.
    static func uniqueNames(_ outcomes: [CheckOutcome]) -> [String] {
        var seen: [String: Set<String>] = [:]
        return outcomes.map { o in
            let base = o.shownLabel ?? "load"
            var name = base, n = 1
            while seen[o.scenario, default: []].contains(name) {
                n += 1
                name = "\(base) (\(n))"
            }
            seen[o.scenario, default: []].insert(name)
            return name
        }
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// Milliseconds as seconds with three decimals.
    static func seconds(_ ms: Int) -> String {
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
