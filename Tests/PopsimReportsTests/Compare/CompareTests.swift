import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

let pairScenario = """
    {"popsim": 1, "name": "pair", "strategy": "jc-fifo", "options": {"showMs": 100, "hideMs": 100},
     "popups": {"a": {"respond": {"after": 300}}, "b": {"respond": {"after": 300}}, "c": {"when": "false", "untriggered": "discard"}},
     "events": [{"at": 0, "enqueue": "a"}, {"at": 200, "enqueue": ["b", "c"]}]}
    """

@Suite("popsim compare and the charts", .serialized)
struct CompareTests {
    /// Runs `popsim compare` in process on the pair scenario, saved as `F`.
    func compare(_ arguments: [String], environment: [String: String] = [:]) throws -> (ExitCode, String, String) {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("F").path
        try Data(pairScenario.utf8).write(to: URL(fileURLWithPath: path))
        var console = Console(environment: environment)
        let code = Popsim.main(["compare", path] + arguments, console: &console)
        return (code, console.stdout.replacingOccurrences(of: path, with: "F"), console.stderr.replacingOccurrences(of: path, with: "F"))
    }

    @Test func textReportBlocksSummaryTotalsAndDivergence() throws {
        let (code, out, err) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--strategy", "fg:order=lifo,hideMs=0"],
                                           environment: ["COLUMNS": "200"])
        #expect(code == .success && err == "")
        // At 80 columns the summary's tables are cut into groups of strategies that fit.
        let (_, narrow, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--strategy", "fg:order=lifo,hideMs=0"],
                                         environment: ["COLUMNS": "80"])
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(narrow.contains("\n  popup  fg:order=lifo,hideMs=0  wait  preempted\n"))
        #expect(out == """
            Scenario: pair (F)

            Strategy 1: jc-fifo
              options: showMs=100 hideMs=100 navMs=0
              shown 3, dropped 0, lost 0, overlaps 0, pending 0
              last popup gone 1000 ms, longest wait 800 ms, mean wait 366 ms

            Strategy 2: jc-lifo
              options: showMs=100 hideMs=100 navMs=0
              shown 3, dropped 0, lost 0, overlaps 0, pending 2
              last popup gone 500 ms, longest wait 300 ms, mean wait 133 ms

            Strategy 3: fg:order=lifo,hideMs=0
              options: order=lifo showMs=100 hideMs=0 navMs=0
              shown 2, dropped 1, lost 0, overlaps 0, pending 0
              last popup gone 800 ms, longest wait 200 ms, mean wait 100 ms

            Summary against jc-fifo
              popup  jc-fifo  wait  preempted  jc-lifo  wait  preempted  fg:order=lifo,hideMs=0  wait  preempted
              a            0     0          0        0     0          1                       0     0          0
              b          500   300          0      300   100          1                     400   200          0
              c         1000   800          0      500   300          0     dropped (condition)     -          0

              total              jc-fifo     jc-lifo  fg:order=lifo,hideMs=0
              shown                    3           3                  2 (-1)
              dropped                  0           0                  1 (+1)
              lost                     0           0                       0
              overlaps                 0           0                       0
              pending                  0      2 (+2)                       0
              last gone (ms)        1000  500 (-500)              800 (-200)
              longest wait (ms)      800  300 (-500)              200 (-600)
              mean wait (ms)         366  133 (-233)              100 (-266)

              jc-lifo first differs at 200 ms:
                jc-fifo: enqueue c
                jc-lifo: hide a (temporary); enqueue c
              fg:order=lifo,hideMs=0 first differs at 400 ms:
                jc-fifo: nothing (next, at 500 ms: gone a; show b)
                fg:order=lifo,hideMs=0: drop c (condition); show b

            """)
    }

    /// Issue 25: with `all`, the reference is the first named, else the file's own strategy
    /// (jc-fifo here); none runs twice.
    @Test func allKeepsTheReferenceAndRunsNoneTwice() throws {
        let names = StrategyRegistry.names
        func lanes(_ out: String) -> [String] {
            out.split(separator: "\n").compactMap { line in
                line.hasPrefix("Strategy ") ? line.split(separator: ":", maxSplits: 1).last.map { String($0.dropFirst()) } : nil
            }
        }
        let (code, out, _) = try compare(["--strategy", "all"])
        #expect(code == .success)
        #expect(lanes(out) == ["jc-fifo"] + names.filter { $0 != "jc-fifo" })
        let (_, named, _) = try compare(["--strategy", "fg", "--strategy", "all", "--strategy", "jc-lifo"])
        #expect(lanes(named) == ["fg"] + names.filter { $0 != "fg" })
        let (_, twice, _) = try compare(["--strategy", "jc-lifo", "--strategy", "jc-lifo", "--strategy", "fg"])
        #expect(lanes(twice) == ["jc-lifo", "fg"])
    }

    @Test func ganttFitsAFixedWidth() throws {
        let (code, out, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "gantt"],
                                         environment: ["COLUMNS": "60"])
        #expect(code == .success)
        #expect(out == #"""
            pair - jc-fifo
            a      ////################\\\\\
            b               ...............////################\\\\\
            c               .......................................////#
            pair - jc-lifo
            a      ////######\\\\\...................
            b               ...../////#\\\\\.........
            c               ...............////######
                   0                       0.5 s                   1.0 s
            . queued  / presenting  # shown  \ hiding  x drop  ! warning

            """#)
        #expect(out.split(separator: "\n").allSatisfy { $0.count <= 60 })
        let (_, unicode, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "gantt"],
                                          environment: ["COLUMNS": "60", "LANG": "en_US.UTF-8"])
        #expect(unicode.contains("▒▒▒▒████████████████░░░░░"))
        let (_, forced, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "gantt", "--ascii"],
                                         environment: ["COLUMNS": "60", "LANG": "en_US.UTF-8"])
        #expect(forced == out)
    }

    @Test func jsonAndMarkdownCarryTheSameData() throws {
        let (_, json, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "json"])
        let value = try JSONReader.parse(Array(json.utf8))
        guard case .object(let members) = value.kind else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["popsim", "scenario", "file", "reference", "strategies"])
        #expect(json.contains(#""divergence": {"t": 200, "reference": ["enqueue c"], "this": ["hide a (temporary)", "enqueue c"]}"#))
        let (_, markdown, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "markdown"])
        #expect(markdown.contains("| popup | jc-fifo | wait | preempted | jc-lifo | wait | preempted |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"))
        #expect(markdown.contains("| pending | 0 | 2 (+2) |"))
    }

    @Test func identicalTimelinesSaySo() throws {
        let (_, out, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-fifo:showMs=100"])
        #expect(out.hasSuffix("  jc-fifo:showMs=100: same timeline as jc-fifo\n"))
    }

    @Test(arguments: [
        (["--strategy", "fg"], "popsim: compare: expected at least two --strategy, e.g. --strategy fg --strategy jc-lifo"),
        (["--strategy", "fg", "--strategy", "nope"], #"popsim: compare: --strategy nope: --strategy: unknown strategy "nope" (known: \#(knownStrategies))"#),
        (["--strategy", "fg", "--strategy", "fg:order=up"], #"popsim: compare: --strategy fg:order=up: --option order: expected one of fifo, lifo, priority, priority+fifo, priority+lifo, got "up""#),
        (["--strategy", "fg", "--strategy", "fg:"], "popsim: compare: --strategy fg:: expected options after ':'"),
        (["--strategy", "fg", "--strategy", "ssp", "--format", "pdf"], #"popsim: compare: --format: expected one of text, json, markdown, gantt, svg, html, trace; got "pdf""#),
    ])
    func badUsageIsExitCode2(_ arguments: [String], _ message: String) throws {
        let (code, out, err) = try compare(arguments)
        #expect(code == .badInput && out == "")
        #expect(err == message + "\n")
    }

    @Test func svgIsWellFormedWithOneLanePerStrategy() throws {
        let (code, svg, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--strategy", "fg", "--format", "svg"])
        #expect(code == .success)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.elements.first == "svg")
        #expect(svg.components(separatedBy: "<g class=\"lane\"").count - 1 == 3)
        #expect(svg.components(separatedBy: "<g class=\"row\"").count - 1 == 9)
        for kind in ["queued", "presenting", "shown", "hiding"] {
            #expect(svg.contains("<rect class=\"\(kind)\" x="))
        }
        #expect(svg.contains("<path class=\"drop\""))
        #expect(svg.contains(">1.0 s</text>") && svg.contains(">0.2 s</text>") && !svg.contains(" ms</text>"))
        // Several lanes: every row names its strategy (issue 25).
        #expect(svg.contains(#"<text x="10" y="81">a<tspan class="lane-name" dx="5">jc-fifo</tspan></text>"#))
        // Every coordinate is an integer.
        #expect(!svg.contains(".5\""))
        let (_, html, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "html"])
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<details class=\"lane\" open data-strategy=\"jc-lifo\">"))
        #expect(html.contains("<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100000 "))
        #expect(html.contains("<tr><td>jc-fifo</td><td>showMs=100 hideMs=100 navMs=0</td><td>3</td><td>0</td><td>0</td><td>0</td><td>1100 ms</td></tr>"))
        #expect(html.contains("<div class=\"axis\"><div class=\"gutter\"></div><div class=\"ticks\" id=\"ticks\">"))
        #expect(html.contains("<span style=\"left: 90.9%\">1.0 s</span>"))
        #expect(html.contains(#"<div class="name" title="a (jc-lifo)"><span class="lane-name">jc-lifo</span>a</div>"#))
        #expect(html.hasSuffix("</script>\n</body>\n</html>\n"))
        let (_, again, _) = try compare(["--strategy", "jc-fifo", "--strategy", "jc-lifo", "--format", "html"])
        #expect(again == html)
    }

    @Test func roundTicks() {
        #expect(TimeTicks.ticks(end: 14230) == [0, 2000, 4000, 6000, 8000, 10000, 12000, 14000])
        // One unit per axis (issue 25): `1.0 s` beside `0.8 s`, never `800 ms`; `400 s` beside
        // `300 s`, never `5 min`.
        #expect(TimeTicks.labels(TimeTicks.ticks(end: 1100)) == ["0", "0.2 s", "0.4 s", "0.6 s", "0.8 s", "1.0 s"])
        #expect(TimeTicks.labels(TimeTicks.ticks(end: 14230)) == ["0", "2 s", "4 s", "6 s", "8 s", "10 s", "12 s", "14 s"])
        #expect(TimeTicks.labels([0, 100_000, 200_000, 300_000, 400_000]) == ["0", "100 s", "200 s", "300 s", "400 s"])
        #expect(TimeTicks.labels([0, 120_000, 240_000]) == ["0", "2 min", "4 min"])
        #expect(TimeTicks.labels([0, 500, 1000, 1500]) == ["0", "0.5 s", "1.0 s", "1.5 s"])
        #expect(TimeTicks.ticks(end: Int.max).count <= 12)
    }

    /// A chart too big for a browser is refused unless forced; the trace format is for those.
    @Test func hugeChartsAreRefusedWithoutForce() throws {
        // Three marks an event: over the 100,000 limit either way.
        let n = TestTier.count(quick: 34_000, full: 60_000)
        let many = (0..<n).map { #"{"at": \#($0), "enqueue": "a"}"# }.joined(separator: ",")
        let text = #"{"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0}, "popups": {"a": {"duration": 0}}, "events": ["# + many + "]}"
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var console = Console()
        #expect(Popsim.main(["run", path, "--format", "html"], console: &console) == .badInput)
        #expect(console.stdout == "")
        #expect(console.stderr == "popsim: run: the chart would draw about \(3 * n) marks (more than 100000); use --format trace for Perfetto, or --force\n")
        var forced = Console()
        #expect(Popsim.main(["run", path, "--format", "svg", "--force"], console: &forced) == .success)
        #expect(forced.stdout.hasPrefix("<?xml"))
    }
}
