import Foundation
import Testing
@testable import PopsimCLI
import PopsimTestSupport

/// On a terminal, an exploration longer than a second shows a progress line on stderr —
/// variants done of all, failures so far, time left — erased at the end.
@Suite("explore progress")
struct ExploreProgressTests {
    final class Lines: @unchecked Sendable {
        private var lines: [String] = []
        private let lock = NSLock()
        func add(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    @Test func aLongExplorationShowsItsProgress() {
        let drawn = Lines()
        var console = Console()
        console.progressSink = { drawn.add($0) }
        // About three seconds of work in a debug build: well past the first second.
        let code = Popsim.main(["explore", packageRoot.path + "/Benchmarks/explore-first-launch.json", "--budget", "12000", "--jobs", "1"],
                               console: &console)
        #expect(code == .difference)
        let lines = drawn.all
        #expect(lines.count >= 2)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("\r\u{1B}[Kexplore: ") && $0.contains(" of 12000 variants, ") && $0.hasSuffix(" s left") })
        #expect(lines.last == "\r\u{1B}[K")
        #expect(!console.stdout.contains("\u{1B}"))
    }
}
