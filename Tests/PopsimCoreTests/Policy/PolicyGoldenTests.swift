import Foundation
import Testing
@testable import PopsimCore
import PopsimReports
import PopsimCLI
import PopsimTestSupport

/// Issue 20: every knob of the `policy` strategy on a small scenario (`k…`, each timeline checked
/// by hand against the knob's rule in docs/policy.md), and the review findings (`r…`), as
/// scenarios with their goldens in Tests/Goldens/policy/ — kept by `popsim check
/// Tests/Goldens/policy --update` (issue 27), compared here with invariant checks on and by `check`.
@Suite("policy: each knob's timeline, and the review findings")
struct PolicyGoldenTests {
    static let folder = packageRoot.appendingPathComponent("Tests/Goldens/policy").path

    static var scenarios: [String] {
        ((try? FileIO.list(folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test(arguments: scenarios)
    func timeline(_ file: String) throws {
        let text = String(decoding: try FileIO.read(Self.folder + "/" + file), as: UTF8.self)
        let golden = String(decoding: try FileIO.read(Self.folder + "/" + file.dropLast(5) + ".policy.timeline"), as: UTF8.self)
        #expect(try PopsimTestSupport.timeline(text) == golden, "\(file)")
    }

    /// `check` runs every one of them, and each under `policy` only (nothing skipped or unresolved).
    @Test func checkPassesThemAll() throws {
        #expect(Self.scenarios.count == 33)
        let output = try runPopsim(["check", "Tests/Goldens/policy"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.hasSuffix("\n\(Self.scenarios.count) passed, 0 failed\n"))
        #expect(output.stdout.components(separatedBy: "[policy]\n").count - 1 == Self.scenarios.count)
    }
}
