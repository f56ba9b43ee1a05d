import Foundation
import Testing
import PopsimTestSupport
@testable import PopsimCore

/// An output never replaces one of the command's inputs (docs/guarantees.md), whatever names it:
/// standard input redirected from a file, and the goldens and project file `check` reads
/// (issue 66, causes 1 and 2).
@Suite("outputs never replace an input")
struct InputsNeverReplacedTests {
    static let catalog = #"{"popsim": 1, "popups": {"a": {"duration": 1000}}}"#
    static let trace = "user,time,action,popup\nu,0,enqueue,a\n"

    /// `replay - --output t.csv < t.csv`: standard input is the trace, and the report is refused
    /// there (the process and its redirect are the subject: launched through a shell).
    @Test func standardInputIsAnInput() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try Self.trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let popsim = popsimExecutable().path
        for command in ["replay - --catalog c.json --strategy fg --output t.csv < t.csv",
                        "replay - --catalog c.json --strategy fg --pack t.csv < t.csv"] {
            let r = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(popsim)' " + command], in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("is standard input, one of its inputs: writing"), "\(r.stderr)")
            #expect(try String(contentsOf: dir.appendingPathComponent("t.csv"), encoding: .utf8) == Self.trace)
        }
        // Standard input from a pipe is no file: the report is written.
        let piped = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "cat t.csv | '\(popsim)' replay - --catalog c.json --strategy fg --output r.txt"], in: dir)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("r.txt"), encoding: .utf8).hasPrefix("replay: - with c.json"))
    }

    /// `check s.json --junit s.fg.timeline` (the golden it just passed) and `--junit .popsim.json`
    /// are refused before anything runs; the golden is left as it was.
    @Test func checkNeverWritesItsJUnitOverAGoldenOrTheProjectFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}, "events": [{"at": 0, "enqueue": "a"}]}"#
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        #expect(popsimInProcess(["check", scenario, "--strategy", "fg", "--update"]).status == 0)
        let golden = dir.appendingPathComponent("s.fg.timeline").path
        let before = try String(contentsOfFile: golden, encoding: .utf8)
        let r = popsimInProcess(["check", scenario, "--strategy", "fg", "--junit", golden])
        #expect(r.status == 2)
        #expect(r.stderr == "popsim: check: --junit \(golden) is a golden's name: check reads it, and the report would replace it; name another file\n")
        #expect(try String(contentsOfFile: golden, encoding: .utf8) == before)
        let project = dir.appendingPathComponent(".popsim.json").path
        let p = popsimInProcess(["check", scenario, "--strategy", "fg", "--junit", project])
        #expect(p.status == 2 && p.stderr.contains("is a project file's name"), "\(p.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project))
        // A golden not made yet is refused by its name too (`--update` would write it).
        let other = dir.appendingPathComponent("s.other.timeline").path
        #expect(popsimInProcess(["check", scenario, "--strategy", "fg", "--junit", other]).status == 2)
        #expect(popsimInProcess(["check", scenario, "--strategy", "fg", "--junit", dir.appendingPathComponent("junit.xml").path]).status == 0)
    }

    /// `gen --trace --catalog X --output X`, X not made yet, by one name, two names, or a link
    /// to it: refused before anything is written (issue 66, cause 4).
    @Test func genNeverWritesTheTraceAndItsCatalogToOneFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let x = dir.appendingPathComponent("x.csv").path
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.csv").path, withDestinationPath: "x.csv")
        for other in [x, dir.path + "/./sub/../x.csv", dir.appendingPathComponent("link.csv").path] {
            try? FileManager.default.createDirectory(atPath: dir.path + "/sub", withIntermediateDirectories: true)
            let r = popsimInProcess(["gen", "--trace", "--users", "2", "--catalog", x, "--output", other])
            #expect(r.status == 2, "\(other): \(r.stderr)")
            #expect(r.stderr == "popsim: gen: --catalog and --output name one file (\(other)): the second write would replace the first; name two files\n")
            #expect(!FileManager.default.fileExists(atPath: x))
        }
        let fine = popsimInProcess(["gen", "--trace", "--users", "2", "--catalog", x, "--output", dir.appendingPathComponent("t.csv").path])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// Two plug-ins of one file stem would share a label, a column and a golden: refused before
    /// either starts, nothing written (issue 66, cause 3).
    @Test func twoPlugInsOfOneStemAreRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}, "events": [{"at": 0, "enqueue": "a"}]}"#
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        for command in ["check", "compare"] {
            let r = popsimInProcess([command, scenario, "--strategy", "exec:a/x.py", "--strategy", "exec:b/x.py"] + (command == "check" ? ["--update"] : []))
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr == "popsim: --strategy exec:a/x.py and exec:b/x.py share the label exec-x (one column, one golden): "
                    + "give the plug-ins files of different names\n", "\(command): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.json"])
    }
}
