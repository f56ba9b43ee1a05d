import Foundation
import Testing
import PopsimCore
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

    /// A property no run can break or keep, whatever the strategy, tests nothing: a note.
    @Test func propertiesThatCanNeverFailOrHold() throws {
        let text = #"{"popsim": 1, "strategy": "fg", "popups": {"a": {"duration": 10}, "b": {}}, "expect": ["shown b", "a before b", "visible <= 2", "never shown b", "wait b <= 5", "shows b <= 1 per 9", "shown a", "visible <= 1"], "events": [{"at": 0, "enqueue": "a"}]}"#
        let output = try runPopsim(["lint", "-"], stdin: text)
        #expect(output.status == 0)
        #expect(output.stdout == """
            -:1:88: expect: 'shown b' can never hold: nothing enqueues 'b'
            -:1:99: expect: 'a before b' can never fail: nothing enqueues 'b'
            -:1:113: expect: 'visible <= 2' can never fail: there are only 2 popups
            -:1:129: expect: 'never shown b' can never fail: nothing enqueues 'b'
            -:1:146: expect: 'wait b <= 5' can never fail: nothing enqueues 'b'
            -:1:161: expect: 'shows b <= 1 per 9' can never fail: nothing enqueues 'b'
            0 hazards, 6 notes

            """)
    }

    /// The charts mark the instant that breaks a property: a row under the lane (gantt), a dashed
    /// line with the evidence as its tooltip (svg, html).
    @Test func chartsMarkTheBrokenInstant() throws {
        let gantt = try runPopsim(["run", "-", "--format", "gantt", "--ascii"], stdin: Self.scenario, environment: ["COLUMNS": "60"])
        #expect(gantt.status == 1)
        #expect(gantt.stdout.contains("\nexpect      ^\n"))
        #expect(gantt.stdout.hasSuffix("^ property broken\n"))
        let svg = try runPopsim(["run", "-", "--format", "svg"], stdin: Self.scenario)
        #expect(svg.stdout.contains(#"<title>shareGuide before editWish: editWish shown at 0 ms, shareGuide at 1300 ms</title></line>"#))
        let html = try runPopsim(["run", "-", "--format", "html"], stdin: Self.scenario)
        #expect(html.stdout.contains(#"<summary>fg — fails: shareGuide before editWish</summary>"#))
        #expect(html.stdout.contains(#"<line class="broken" x1="0""#))
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
            PASS: \(dir.path)/ok.json [fg] (properties only: no golden)
            FAIL: \(dir.path)/wish.json [fg]: property 'shareGuide before editWish' fails
              fails  shareGuide before editWish: editWish shown at 0 ms, shareGuide at 1300 ms
            1 passed, 1 failed

            """)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites tests="2" failures="1" errors="0">"#))
        #expect(xml.contains(#"<failure message="property 'shareGuide before editWish' fails">fails  shareGuide before editWish: editWish shown at 0 ms, shareGuide at 1300 ms</failure>"#))
        let json = try runPopsim(["check", dir.path, "--format", "json"])
        #expect(json.stdout.contains(#""verdict": "broken", "brokenProperties": [{"property": "shareGuide before editWish", "holds": false, "at": 0, "evidence": "editWish shown at 0 ms, shareGuide at 1300 ms"}]"#))
        // Under another strategy given on the command line, still without a golden.
        let other = try runPopsim(["check", dir.appendingPathComponent("wish.json").path, "--strategy", "jc-fifo"])
        #expect(other.stdout.hasPrefix("FAIL: \(dir.path)/wish.json [jc-fifo]: property 'shareGuide before editWish' fails\n"))
    }
}

/// `compare`: which library keeps the rules, as a table in text and markdown and per run in JSON;
/// `--strategy all` compares every registered strategy.
@Suite("properties in compare")
struct PropertiesCompareTests {
    @Test func compareTabulatesPropertiesByStrategy() throws {
        let output = try runPopsim(["compare", "Scenarios/flow-wish-rules.json", "--strategy", "keyed", "--strategy", "fg"],
                                   environment: ["COLUMNS": "80"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("""
            Properties
              property                               keyed     fg
              editWish before shareGuide  fails at 2000 ms  holds
              visible <= 1                           holds  holds
              wait editWish <= 500        fails at 3500 ms  holds
              no pending                             holds  holds

              keyed: editWish before shareGuide: shareGuide shown at 2000 ms, editWish at 3500 ms
              keyed: wait editWish <= 500: editWish waited 1500 ms (requested at 2000 ms, shown at 3500 ms)

            """))
        let markdown = try runPopsim(["compare", "Scenarios/flow-wish-rules.json", "--strategy", "keyed", "--strategy", "fg", "--format", "markdown"])
        #expect(markdown.stdout.contains("| editWish before shareGuide | fails at 2000 ms | holds |\n"))
        let json = try runPopsim(["compare", "Scenarios/flow-wish-rules.json", "--strategy", "keyed", "--strategy", "fg", "--format", "json"])
        #expect(json.stdout.contains(#""expect": [{"property": "editWish before shareGuide", "holds": false, "at": 2000, "evidence": "shareGuide shown at 2000 ms, editWish at 3500 ms"}"#))
        let all = try runPopsim(["compare", "Scenarios/flow-wish-rules.json", "--strategy", "all", "--format", "json"])
        #expect(all.status == 0)
        let runs = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any]
        #expect((runs?["strategies"] as? [Any])?.count == StrategyRegistry.all.count)
    }
}
