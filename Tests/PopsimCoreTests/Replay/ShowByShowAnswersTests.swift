import Foundation
import Testing
@testable import PopsimCore
import PopsimReports
import PopsimTestSupport

/// Each show answered as production answered it (issue 65): a popup's `respond` may answer show
/// by show; replay reads production's answer to each show from the rows; under production's own
/// rules a trace then replays to production exactly, waits included.
@Suite("replay: each show answered as production answered it")
struct ShowByShowAnswersTests {
    static let catalog = """
        {"popsim": 1, "popups": {"a": {"duration": 2000, "then": {"ok": []}}, "b": {"duration": 1000}}}
        """

    /// The engine answers the k-th show with the k-th answer, `null` with none (the popup stays
    /// its duration), and every show past the list with the list's last answer.
    @Test func theEngineAnswersEachShowInTurn() throws {
        let text = """
            {"popsim": 1, "popups": {"a": {"duration": 2000, "then": {"ok": []},
              "respond": [{"after": 1000}, null, {"after": 300, "button": "ok"}]}},
             "events": [{"at": 0, "enqueue": "a"}, {"at": 5000, "enqueue": "a"}, {"at": 10000, "enqueue": "a"}, {"at": 15000, "enqueue": "a"}]}
            """
        let result = try run(text, strategy: "jc-fifo")
        let hides = result.timeline.entries.filter { $0.event == .hide }.map { e in "\(e.t) \(e.reason?.rawValue ?? "") \(result.timeline.button(e) ?? "-")" }
        // jc-fifo presents in 400 ms; answers and the duration count from the end of it.
        #expect(hides == ["1400 user -", "7400 duration -", "10700 user ok", "15700 user ok"])
    }

    /// A list's element is checked like an answer, at its own path; `null` is no answer.
    @Test func aListIsLoadedAndCheckedElementByElement() throws {
        let good = try Pipeline.load(Array(#"{"popsim": 1, "popups": {"a": {"respond": [null, {"after": 5}]}}, "events": []}"#.utf8), file: "s.json")
        #expect(good.popups[0].respondByShow == [nil, Response(after: 5, button: "close")])
        #expect(good.popups[0].respond == Response(after: 5, button: "close"))
        #expect(loadErrors(#"{"popsim": 1, "popups": {"a": {"respond": [{"after": -1}]}}, "events": []}"#, file: "s.json")
                == ["s.json:1:54: popups.a.respond[0].after: expected an integer >= 0, got -1"])
    }

    /// One user's rows, decoded against `catalog`.
    static func user(_ rows: [(Int, String, String, String)], catalog: Scenario) -> Replayer.User {
        var values = TraceValues()
        let decoder = TraceRowDecoder(file: "t.csv", layout: TraceLayout(format: .csv), catalog: catalog)
        var entries: [TimedEntry] = []
        for (i, r) in rows.enumerated() {
            let texts: [TraceField: String] = [.user: "u", .time: String(r.0), .action: r.1, .popup: r.2, .value: r.3]
            TraceRow.withTexts(texts, row: i + 1, line: i + 2) { row in
                var failure: TraceError?
                if let d = decoder.decode(row, values: &values, failure: &failure) { entries.append(TimedEntry(time: d.time, entry: d.entry)) }
            }
        }
        return Replayer.User(id: "u", firstRow: 1, rows: entries, values: values)
    }

    /// A `dismissed` row answers the last show of its popup once; a show no row answers has no
    /// answer; a show past production's takes the last answer; the column's show animation is
    /// taken off; a popup never shown keeps the catalog's.
    @Test func productionsAnswersAreReadShowByShow() throws {
        var catalog = try Pipeline.load(Array(Self.catalog.utf8), file: "c.json")
        catalog.popups[1].respond = Response(after: 7, button: "close")
        let user = Self.user([(0, "dismissed", "a", ""), (100, "shown", "a", ""), (1100, "dismissed", "a", "ok"), (1200, "dismissed", "a", ""),
                              (5000, "shown", "a", ""), (9000, "shown", "a", ""), (9400, "dismissed", "a", "")], catalog: catalog)
        var answers = ProductionAnswers()
        answers.read(user, popups: 2)
        #expect(answers.answer(popup: 0, show: 0) == ProductionAnswers.Answer(after: 1000, button: "ok"))
        #expect(answers.answer(popup: 0, show: 1) == nil)
        #expect(answers.answer(popup: 0, show: 2) == ProductionAnswers.Answer(after: 400, button: nil))
        var popups = catalog.popups
        answers.apply(to: &popups, showMs: [100, 0], catalog: catalog.popups)
        // The last answer is `respond`, which answers every show past the list: it is left out of it.
        #expect(popups[0].respondByShow == [Response(after: 900, button: "ok"), nil])
        #expect(popups[0].answer(toShow: 2) == Response(after: 300, button: "close") && popups[0].answer(toShow: 7) == popups[0].answer(toShow: 2))
        #expect(popups[1].respondByShow.isEmpty && popups[1].respond == Response(after: 7, button: "close"))
        // The next user's rows replace them in the same storage.
        answers.read(Self.user([(0, "shown", "b", "")], catalog: catalog), popups: 2)
        answers.apply(to: &popups, showMs: [0, 0], catalog: catalog.popups)
        #expect(popups[0].respondByShow.isEmpty && popups[0].respond == nil)
        #expect(popups[1].respondByShow == [nil] && popups[1].respond == Response(after: 7, button: "close"))
    }

    /// A saved user writes its answers show by show, and the file reads back to the same answers.
    @Test func aSavedUserWritesItsAnswersShowByShow() throws {
        var popup = Popup(name: "a")
        popup.respondByShow = [Response(after: 900, button: "ok"), nil]
        popup.respond = Response(after: 7, button: "close")
        #expect(ReplayUserFile.answers(popup).map { JSONWriter.write($0) } == #"[{"after": 900, "button": "ok"}, null, {"after": 7, "button": "close"}]"#)
        popup.respond = Response(after: 900, button: "ok")
        #expect(ReplayUserFile.answers(popup).map { JSONWriter.write($0) } == #"[{"after": 900, "button": "ok"}, null]"#)
    }

    /// The bundled week, and each export of its first 40 users, replayed under the model that made
    /// them (`fg`): every user agrees with production, in order and in timing, and every wait
    /// figure is production's, to the millisecond (no distance between the waits), for the whole
    /// and for every popup.
    @Test(arguments: [("week.csv", nil), ("exports/words.csv", nil), ("exports/segment.csv", "segment"),
                      ("exports/firebase.csv", "firebase"), ("exports/server.jsonl", "server")] as [(String, String?)])
    func aTraceReplaysToProductionUnderItsTrueModel(_ file: String, _ mapping: String?) throws {
        let dir = packageRoot.path + "/Examples/replay/"
        let output = popsimInProcess(["replay", dir + file, "--catalog", dir + "app.json", "--strategy", "fg", "--format", "csv"]
                                     + (mapping.map { ["--mapping", dir + "exports/\($0).mapping.json"] } ?? []))
        #expect(output.status == 0 && output.stderr == "")
        let lines = output.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        let waits = header.indices.filter { header[$0].hasPrefix("wait p") || header[$0].hasPrefix("wait max") }
        let agrees = try #require(header.firstIndex(of: "agrees with production")), timing = try #require(header.firstIndex(of: "agrees in timing"))
        let distance = try #require(header.firstIndex(of: "wait distance (ms)"))
        #expect(waits.count == 4)
        let production = lines.dropFirst().filter { $0[0] == "production" }, fg = lines.dropFirst().filter { $0[0] == "fg" }
        #expect(production.count == 7 && fg.count == 7)
        for (p, m) in zip(production, fg) {
            #expect(waits.map { p[$0] } == waits.map { m[$0] }, "\(p[2])")
            #expect(m[distance] == (p[waits[0]] == "-" ? "-" : "0"), "\(p[2])")
        }
        #expect(fg[0][agrees].hasPrefix("100.0% (") && fg[0][timing] == fg[0][agrees])
    }

    /// `gen --trace` with its defaults writes the bundled week and its catalog, byte for byte.
    @Test func theBundledWeekIsWhatGenWrites() throws {
        let dir = try temporaryDirectory()
        let output = popsimInProcess(["gen", "--trace", "--catalog", dir.path + "/app.json"])
        #expect(output.status == 0)
        #expect(output.stdout == (try String(contentsOf: packageRoot.appendingPathComponent("Examples/replay/week.csv"), encoding: .utf8)))
        #expect((try String(contentsOf: dir.appendingPathComponent("app.json"), encoding: .utf8))
                == (try String(contentsOf: packageRoot.appendingPathComponent("Examples/replay/app.json"), encoding: .utf8)))
    }
}
