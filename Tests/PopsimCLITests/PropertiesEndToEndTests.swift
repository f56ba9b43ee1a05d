import Foundation
import Testing
import PopsimTestSupport

/// `expect` end to end: the verdicts after run's summary, in JSON, and the exit code.
@Suite("properties, end to end")
struct PropertiesEndToEndTests {
    static let scenario = #"""
        {"popsim": 1, "strategy": "fg", "options": {"hideMs": 300},
         "popups": {"editWish": {"duration": 1000}, "shareGuide": {"duration": 1000, "priority": "high"}},
         "expect": ["no overlap", "shareGuide before editWish", "visible <= 1", "no pending"],
         "events": [{"at": 0, "enqueue": "editWish"}, {"at": 100, "enqueue": "shareGuide"}]}
        """#

    @Test func runPrintsAVerdictPerPropertyAndExits1WhenOneFails() throws {
        let output = try runPopsim(["run", "-"], stdin: Self.scenario)
        #expect(output.status == 1 && output.stderr == "")
        #expect(output.stdout.hasSuffix("""
            shareGuide       100         1300  1200

            expect: 3 hold, 1 fails
              holds  no overlap
              fails  shareGuide before editWish: editWish shown at 0 ms, shareGuide at 1300 ms
              holds  visible <= 1
              holds  no pending

            """))
        let json = try runPopsim(["run", "-", "--format", "json"], stdin: Self.scenario)
        #expect(json.status == 1)
        #expect(json.stdout.hasSuffix(#"""
            "expect": [{"property": "no overlap", "holds": true}, {"property": "shareGuide before editWish", "holds": false, "at": 0, "evidence": "editWish shown at 0 ms, shareGuide at 1300 ms"}, {"property": "visible <= 1", "holds": true}, {"property": "no pending", "holds": true}]}

            """#))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((decoded?["expect"] as? [Any])?.count == 4)
    }

    @Test func aReportWithAFailedPropertyIsStillWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.txt").path
        let output = try runPopsim(["run", "-", "--output", target], stdin: Self.scenario)
        #expect(output.status == 1)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("fails  shareGuide before editWish"))
        let holding = Self.scenario.replacingOccurrences(of: "\"shareGuide before editWish\", ", with: "")
        #expect(try runPopsim(["run", "-"], stdin: holding).status == 0)
    }
}

/// `check` on scenarios with `expect`: the properties are checked under every strategy checked,
/// a scenario with `expect` needs no golden, and the failing property is named in text, JSON and
/// JUnit.
@Suite("properties in check")
struct PropertiesCheckTests {
    @Test func checkNamesTheBrokenPropertyEverywhere() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(PropertiesEndToEndTests.scenario.utf8).write(to: dir.appendingPathComponent("wish.json"))
        let ok = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {}}, "expect": ["shown a"], "events": [{"at": 0, "enqueue": "a"}]}"#
        try Data(ok.utf8).write(to: dir.appendingPathComponent("ok.json"))
        let junit = dir.appendingPathComponent("j.xml").path
        let output = try runPopsim(["check", dir.path, "--junit", junit])
        #expect(output.status == 1)
        #expect(output.stdout == """
            PASS: \(dir.path)/ok.json [fg]
            FAIL: \(dir.path)/wish.json [fg]: property 'shareGuide before editWish' fails
              fails  shareGuide before editWish: editWish shown at 0 ms, shareGuide at 1300 ms
            1 passed, 1 failed

            """)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites tests="2" failures="1" errors="0">"#))
        #expect(xml.contains(#"<failure message="property 'shareGuide before editWish' fails">fails  shareGuide before editWish: editWish shown at 0 ms, shareGuide at 1300 ms</failure>"#))
        let json = try runPopsim(["check", dir.path, "--format", "json"])
        #expect(json.stdout.contains(#""verdict": "broken", "brokenProperties": [{"property": "shareGuide before editWish", "at": 0, "evidence": "editWish shown at 0 ms, shareGuide at 1300 ms"}]"#))
        // Under another strategy given on the command line, still without a golden.
        let other = try runPopsim(["check", dir.appendingPathComponent("wish.json").path, "--strategy", "jc-fifo"])
        #expect(other.stdout.hasPrefix("FAIL: \(dir.path)/wish.json [jc-fifo]: property 'shareGuide before editWish' fails\n"))
    }
}
