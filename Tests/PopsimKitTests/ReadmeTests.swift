import Testing
import PopsimCore
import PopsimReports
import PopsimCLI
import PopsimTestSupport

@Suite struct ReadmeTests {
    /// The README's example scenario must load and run as printed.
    @Test func theReadmeExampleRuns() throws {
        let readme = String(decoding: try FileIO.read(packageRoot.path + "/README.md"), as: UTF8.self)
        let parts = readme.components(separatedBy: "```json\n")
        #expect(parts.count == 2)
        let example = try #require(parts.last?.components(separatedBy: "```").first)
        let result = try run(example)
        #expect(Summary(result).shown == 3)
        #expect(result.strategy == "jc-fifo")
    }

    /// The two commands a new machine needs are in the README, and CI runs exactly the test one.
    @Test func readmeCommandsAndCI() throws {
        let readme = String(decoding: try FileIO.read(packageRoot.path + "/README.md"), as: UTF8.self)
        #expect(readme.contains("swift run popsim run Scenarios/jc-article-demo.json"))
        #expect(readme.contains("\nswift test "))
        let ci = String(decoding: try FileIO.read(packageRoot.path + "/.ci/run"), as: UTF8.self)
        #expect(ci.hasSuffix("\nswift test\n"))
    }
}
