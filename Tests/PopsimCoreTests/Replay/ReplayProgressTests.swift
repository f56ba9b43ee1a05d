import Foundation
import Testing
@testable import PopsimCLI
import PopsimCore
import PopsimTestSupport

/// On a terminal, replay shows the rows read, the users and the rate on stderr, erased at the end.
@Suite("replay progress")
struct ReplayProgressTests {
    @Test func aReplayShowsRowsUsersAndRate() {
        let drawn = ExploreProgressTests.Lines()
        var console = Console()
        console.progressSink = { drawn.add($0) }
        console.progressTiming = .always
        let code = Popsim.main(["replay", packageRoot.path + "/Examples/replay/week.csv", "--catalog",
                                packageRoot.path + "/Examples/replay/app.json"], console: &console)
        #expect(code == .success)
        let lines = drawn.all
        #expect(lines.count >= 2)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("\r\u{1B}[Kreplay: ") && $0.contains(" rows, 300 users, ") && $0.hasSuffix(" rows/s") })
        #expect(lines.last == "\r\u{1B}[K")
        #expect(!console.stdout.contains("\u{1B}"))
    }
}
