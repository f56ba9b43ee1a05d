import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

@Suite("popsim check", .serialized)
struct CheckCommandTests {
    let scenario = #"{"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0}, "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#

    /// A folder with one scenario and, if given, its golden.
    func fixture(golden: String?) throws -> URL {
        let dir = try temporaryDirectory()
        try Data(scenario.utf8).write(to: dir.appendingPathComponent("s.json"))
        if let golden { try Data(golden.utf8).write(to: dir.appendingPathComponent("s.jc-fifo.timeline")) }
        return dir
    }

    func check(_ arguments: [String], in dir: URL, environment: [String: String] = [:]) -> (ExitCode, String, String) {
        var console = Console(environment: environment)
        let code = Popsim.main(["check"] + arguments, console: &console)
        return (code, console.stdout.replacingOccurrences(of: dir.path + "/", with: ""),
                console.stderr.replacingOccurrences(of: dir.path + "/", with: ""))
    }

    /// A mistyped path, or a folder without scenarios, must not leave CI green.
    @Test func findingNoScenarioIsExitCode2() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var (code, out, err) = check([dir.path], in: dir)
        #expect(code == .badInput && out == "")
        #expect(err == "popsim: check: no scenario found in \(dir.path) (a folder stands for every *.json below it)\n")
        try Data(#"{"name": "pkg"}"#.utf8).write(to: dir.appendingPathComponent("package.json"))
        (code, out, err) = check([dir.path], in: dir)
        #expect(code == .badInput)
        #expect(out == "SKIP: package.json (not a popsim scenario: no \"popsim\" key)\n0 passed, 0 failed, 1 skipped\n")
        #expect(err == "popsim: check: no scenario among the 1 JSON files found\n")
    }

    /// A JSON file in a scanned folder that is not a scenario is reported and skipped.
    @Test func aJSONFileThatIsNotAScenarioIsSkipped() throws {
        let dir = try fixture(golden: "0  enqueue  a\n0  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"name": "pkg"}"#.utf8).write(to: dir.appendingPathComponent("package.json"))
        let (code, out, err) = check([dir.path], in: dir)
        #expect(code == .success && err == "")
        #expect(out == "SKIP: package.json (not a popsim scenario: no \"popsim\" key)\nPASS: s.json [jc-fifo]\n1 passed, 0 failed, 1 skipped\n")
    }

    /// `--update` with `--option` would write a golden that a plain check fails: refused.
    @Test func updateWithAnOptionIsRefused() throws {
        let dir = try fixture(golden: nil)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (code, out, err) = check([dir.path, "--update", "--option", "showMs=5"], in: dir)
        #expect(code == .badInput && out == "")
        #expect(err == "popsim: check: --update with --option showMs=5: the golden would not match a plain 'popsim check'; set the option in the file's \"options\" instead\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.jc-fifo.timeline").path))
    }

    @Test func jsonReportForCISystemsThatAreNotJUnit() throws {
        let dir = try fixture(golden: "0  enqueue  a\n5  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (code, out, _) = check([dir.path, "--format", "json"], in: dir)
        #expect(code == .difference)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(root["passed"] as? Int == 0 && root["failed"] as? Int == 1 && root["skipped"] as? Int == 0)
        let result = try #require((root["results"] as? [[String: Any]])?.first)
        #expect(result["scenario"] as? String == "s.json" && result["strategy"] as? String == "jc-fifo")
        #expect(result["verdict"] as? String == "differs")
        #expect((result["diff"] as? String)?.contains("-5  show     a\n+0  show     a\n") == true)
    }

    /// Colour only when asked (or on a terminal), never with NO_COLOR: the diff's lines.
    @Test func diffsAreColouredWhenAsked() throws {
        let dir = try fixture(golden: "0  enqueue  a\n5  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, coloured, _) = check([dir.path, "--color", "always"], in: dir)
        #expect(coloured.contains("\u{1B}[31mFAIL:\u{1B}[0m s.json [jc-fifo]\n"))
        #expect(coloured.contains("\u{1B}[31m-5  show     a\u{1B}[0m\n\u{1B}[32m+0  show     a\u{1B}[0m\n"))
        let (_, plain, _) = check([dir.path], in: dir, environment: ["NO_COLOR": "1"])
        #expect(!plain.contains("\u{1B}"))
    }

    @Test func passingScenarioExitsZero() throws {
        let dir = try fixture(golden: "0  enqueue  a\n0  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (code, out, err) = check([dir.path], in: dir)
        #expect(code == .success && err == "")
        #expect(out == "PASS: s.json [jc-fifo]\n1 passed, 0 failed\n")
    }

    @Test func aDifferencePrintsTheDiffAndExitsOne() throws {
        let dir = try fixture(golden: "0  enqueue  a\n5  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (code, out, _) = check([dir.path], in: dir)
        #expect(code == .difference)
        #expect(out == """
            FAIL: s.json [jc-fifo]
            --- expected: s.jc-fifo.timeline
            +++ actual: s.json [jc-fifo]
            @@ -1,2 +1,2 @@
             0  enqueue  a
            -5  show     a
            +0  show     a
            0 passed, 1 failed
            to accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):
              popsim check s.json --strategy jc-fifo --update

            """)
    }

    @Test func aMissingGoldenFailsAndSaysHowToRecordIt() throws {
        let dir = try fixture(golden: nil)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (code, out, _) = check([dir.path], in: dir)
        #expect(code == .difference)
        #expect(out == """
            FAIL: s.json [jc-fifo]
            no expected timeline s.jc-fifo.timeline: record one with 'popsim check s.json --strategy jc-fifo --update' and review it
            0 passed, 1 failed
            to accept these timelines, review the diffs above, then run where the goldens are kept (not in CI):
              popsim check s.json --strategy jc-fifo --update

            """)
    }

    @Test func updateWritesTheGoldenOnlyWhenAskedAndNeverOnCI() throws {
        let dir = try fixture(golden: "stale\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (refused, _, err) = check([dir.path, "--update"], in: dir, environment: ["CI": "true"])
        #expect(refused == .badInput)
        #expect(err == "popsim: check: --update is refused when CI is set: expected timelines change only by hand\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("s.jc-fifo.timeline"), encoding: .utf8) == "stale\n")
        let (code, out, _) = check([dir.path, "--update"], in: dir)
        #expect(code == .success)
        #expect(out == "UPDATED: s.jc-fifo.timeline\nPASS: s.json [jc-fifo]\n1 passed, 0 failed\n")
        #expect(check([dir.path], in: dir).0 == .success)
    }

    @Test func badInputExitsTwo() throws {
        let dir = try fixture(golden: "0  enqueue  a\n0  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"popsim": 1, "until": "x"}"#.utf8).write(to: dir.appendingPathComponent("t.json"))
        let (code, out, err) = check([dir.path], in: dir)
        #expect(code == .badInput)
        #expect(out == "PASS: s.json [jc-fifo]\nFAIL: t.json\n1 passed, 1 failed\n")
        #expect(err == "t.json:1:24: until: expected an integer >= 0, got \"x\"\n")
    }

    @Test func junitReportParsesBack() throws {
        let dir = try fixture(golden: "0  enqueue  a\n5  show     a\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(scenario.utf8).write(to: dir.appendingPathComponent("u.json"))
        try Data("0  enqueue  a\n0  show     a\n".utf8).write(to: dir.appendingPathComponent("u.jc-fifo.timeline"))
        let report = dir.appendingPathComponent("report.xml")
        _ = check([dir.path, "--junit", report.path], in: dir)
        let collector = XMLCollector()
        let parser = XMLParser(data: try Data(contentsOf: report))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.elements.filter { $0 == "testcase" }.count == 2)
        #expect(collector.attributes["testsuite"]?["failures"] == "1")
        #expect(collector.text.contains("-5  show     a\n+0  show     a"))
    }

    @Test func outputOrderIsTheInputOrderWhateverTheJobs() throws {
        let scenarios = packageRoot.appendingPathComponent("Scenarios").path
        var one = Console(), many = Console()
        #expect(Popsim.main(["check", scenarios, "--jobs", "1"], console: &one) == .success)
        #expect(Popsim.main(["check", scenarios, "--jobs", "8"], console: &many) == .success)
        #expect(one.stdout == many.stdout)
        let names = one.stdout.split(separator: "\n").dropLast().map { String($0) }
        let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(names.map { $0.components(separatedBy: " [").first ?? "" } == sorted.map { $0.components(separatedBy: " [").first ?? "" })
    }
}

/// Collects element names, attributes and text from an XML document.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var attributes: [String: [String: String]] = [:]
    var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(name)
        self.attributes[name] = attributes
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
