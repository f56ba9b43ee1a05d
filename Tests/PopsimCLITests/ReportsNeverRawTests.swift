import Foundation
import Testing
import PopsimTestSupport
@testable import PopsimCore
@testable import PopsimReports

/// What a catalog or a trace names never reaches a report raw (issue 66, causes 7 and 21): fit's
/// markdown escapes user ids and popup names as replay's does, and every CSV report escapes
/// control characters as the text report does.
@Suite("reports never write input raw")
struct ReportsNeverRawTests {
    /// A user id that is HTML, in `fit --format markdown`'s list of users the best gets wrong.
    @Test func fitsMarkdownEscapesUserIdsAndPopupNames() {
        let miss = FitMiss(user: ReplayTally.UserRef(row: 2, id: "<img src=x onerror=alert(1)>"), index: 1,
                           production: FitMiss.Show(popup: "<b>a</b>", ms: 5), model: nil)
        #expect(FitText.miss(miss, markdown: true) == "user &lt;img src=x onerror=alert(1)> (row 2): show 1: production &lt;b>a&lt;/b> at 5 ms, the model nothing")
        #expect(FitText.miss(miss) == "user <img src=x onerror=alert(1)> (row 2): show 1: production <b>a</b> at 5 ms, the model nothing")
        let bell = FitMiss(user: ReplayTally.UserRef(row: 1, id: "u\u{07}\u{1B}[2J"), index: 1, production: nil, model: nil)
        #expect(FitText.miss(bell, markdown: true) == #"user u\u{7}\u{1B}[2J (row 1): show 1: production nothing, the model nothing"#)
    }

    /// A key's name with ESC and BEL in `replay --format csv --by key`: escaped, as in the text
    /// report; a comma still quotes its field.
    @Test func replaysCSVEscapesControlCharacters() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("c.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000, "key": "k\u001b]0;x\u0007,1"}}}"#.write(toFile: catalog, atomically: true, encoding: .utf8)
        let trace = dir.appendingPathComponent("t.csv").path
        try "user,time,action,popup\nu,0,enqueue,a\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let r = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg", "--format", "csv", "--by", "key"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}") && !r.stdout.contains("\u{07}"))
        #expect(r.stdout.contains(#",key,"k\u{1B}]0;x\u{7},1","#), "\(r.stdout)")
        #expect(CSVField.escape("a\"b\nc") == #""a""b\nc""#)
    }
}
