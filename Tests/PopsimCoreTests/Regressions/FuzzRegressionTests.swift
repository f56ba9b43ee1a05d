import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Every input the fuzzer ever broke popsim with, replayed through everything popsim does.
@Suite struct FuzzRegressionTests {
    static let files = ((try? FileIO.list(packageRoot.path + "/Fuzz/regressions")) ?? []).filter { $0.hasSuffix(".json") }

    @Test func thereAreRegressions() { #expect(!Self.files.isEmpty) }

    @Test(arguments: files)
    func replays(_ name: String) throws {
        let bytes = try FileIO.read(packageRoot.path + "/Fuzz/regressions/" + name)
        #expect(Exercise.everything(bytes).isEmpty)
    }

    @Test func scalingNeverOverflows() {
        #expect(Scale.map(Int.max, 80, Int.max) == 80)
        #expect(Scale.map(4_505_555_555_555_555_550, 80, 4_505_555_555_555_555_851) == 79)
        #expect(Scale.map(5, 100, 0) == 100)
        #expect(Scale.mean([Int.max, Int.max, Int.max]) == Int.max)
        #expect(Scale.mean([1, 2]) == 1)
        #expect(Scale.mean([]) == nil)
    }
}
