import Foundation
import Testing
@testable import PopsimCLI
import PopsimCore
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
        // Every update drawn, so that what is drawn does not depend on the machine's speed.
        console.progressTiming = .always
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

/// Issue 25: explore under a plug-in (milliseconds a variant) shows its progress too: after each
/// variant, not every 256.
@Suite("explore progress under a plug-in")
struct PluginExploreProgressTests {
    @Test func progressComesVariantByVariant() {
        let drawn = ExploreProgressTests.Lines()
        var console = Console()
        console.progressSink = { drawn.add($0) }
        console.progressTiming = .always
        let code = Popsim.main(["explore", packageRoot.path + "/Scenarios/first-launch-uncertain.json", "--budget", "16", "--jobs", "1",
                                "--strategy", "exec:" + packageRoot.path + "/Examples/plugins/notistack.py", "--plugin-per-run"],
                               console: &console)
        #expect(code == .difference)
        let counts = drawn.all.compactMap { line -> Int? in
            guard let range = line.range(of: "explore: ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        // Each variant is reported (every update drawn): 1, 2, … 15 before the last.
        #expect(counts.filter { $0 < 16 }.count >= 10, "\(counts)")
    }
}

/// Issue 25: every command that can run long shows progress on a terminal: compare (which
/// strategy, how far) and lint too, not only run, check and explore.
@Suite("compare and lint progress")
struct CompareLintProgressTests {
    @Test func bigRunsShowTheirProgress() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.json").path
        // Progress comes every 65,536 events: at least two updates either way.
        let events = TestTier.count(quick: 140_000, full: 300_000)
        try Data(ScenarioGenerator(events: events, seed: 3, popups: 20, strategy: "jc-fifo").generate().utf8)
            .write(to: URL(fileURLWithPath: path))
        for (arguments, prefix) in [(["compare", path, "--strategy", "jc-fifo", "--strategy", "fg"], "\r\u{1B}[Kcompare: "),
                                    (["lint", path], "\r\u{1B}[Klint: ")] {
            let drawn = ExploreProgressTests.Lines()
            var console = Console()
            console.progressSink = { drawn.add($0) }
            // Every update drawn: a fast machine finishes within the terminal's first second.
            console.progressTiming = .always
            _ = Popsim.main(arguments, console: &console)
            let lines = drawn.all
            #expect(lines.count >= 2, "\(arguments[0])")
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix(prefix) && $0.hasSuffix(" of \(events) events") }, "\(lines)")
            #expect(lines.last == "\r\u{1B}[K")
        }
    }
}

@Suite("gen progress")
struct GenProgressTests {
    /// `gen` hands the generator a progress line; the generator reports every 65,536 events.
    @Test func theGeneratorReportsItsProgress() {
        final class Calls: @unchecked Sendable { var all: [Int] = [] }
        let calls = Calls()
        _ = ScenarioGenerator(events: 200_000, seed: 1, popups: 5, strategy: "fg").generate { done, total in
            #expect(total == 200_000)
            calls.all.append(done)
        }
        #expect(calls.all == [65_536, 131_072, 196_608])
    }
}
