import Foundation
import Testing
import PopsimTestSupport

/// No silent mapping (issue 65): a condition's value that rows set their variable to never, and
/// a mapped event no row has, are warnings on stderr (exit 0, the report written) — errors with
/// `--strict` (exit 2, nothing written); the bundled exports give none.
@Suite("replay and fit: the mapping traps are said")
struct TraceWarningTests {
    static let exports = packageRoot.path + "/Examples/replay/exports/"
    static let catalog = packageRoot.path + "/Examples/replay/app.json"

    /// The Firebase export with its screens written `screen=home` in the label column: mapped as
    /// `set screen`, every screen becomes the text `screen=home`.
    static func prefixedScreens() throws -> String {
        let text = try String(contentsOfFile: exports + "firebase.csv", encoding: .utf8)
        let lines = text.split(separator: "\n").map { line -> String in
            var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if f.count > 5, f[2] == "screen_view" { f[5] = "screen=" + f[5] }
            return f.joined(separator: ",")
        }
        let path = try temporaryDirectory().path + "/firebase.csv"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aConditionsValueNoRowSetsIsSaid() throws {
        let path = try Self.prefixedScreens()
        let args = ["replay", path, "--catalog", Self.catalog, "--mapping", Self.exports + "firebase.mapping.json"]
        let warned = popsimInProcess(args)
        #expect(warned.status == 0 && warned.stdout.hasPrefix("replay: "))
        #expect(warned.stderr == """
            warning: \(path): no row sets screen to 'home', which the condition of campaign compares it with; rows set it to 'screen=home' 270, \
            'screen=cart' 82 (is the mapping's 'set screen' reading the right column?)
            warning: \(path): no row sets screen to 'cart', which the condition of guide compares it with; rows set it to 'screen=home' 270, \
            'screen=cart' 82 (is the mapping's 'set screen' reading the right column?)

            """)
        let strict = popsimInProcess(args + ["--strict", "--format", "json"])
        #expect(strict.status == 2 && strict.stdout == "")
        #expect(strict.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix(path + ": no row sets screen to '") && $0.hasSuffix("(--strict)") })
        // fit reads the trace as replay does, and says the same.
        let fit = popsimInProcess(["fit", path, "--catalog", Self.catalog, "--mapping", Self.exports + "firebase.mapping.json", "--search", "fg",
                                   "--budget", "5", "--strict"])
        #expect(fit.status == 2 && fit.stdout == "" && fit.stderr.hasPrefix(path + ": no row sets screen to 'home'"))
    }

    @Test func aMappedEventNoRowHasIsSaidWithTheNearestUnmappedOne() throws {
        let dir = try temporaryDirectory()
        let mapping = try String(contentsOfFile: Self.exports + "firebase.mapping.json", encoding: .utf8)
            .replacingOccurrences(of: "\"popup_impression\"", with: "\"popup_impresion\"")
        try mapping.write(toFile: dir.path + "/typo.json", atomically: true, encoding: .utf8)
        let args = ["replay", Self.exports + "firebase.csv", "--catalog", Self.catalog, "--mapping", dir.path + "/typo.json"]
        let warned = popsimInProcess(args)
        #expect(warned.status == 0)
        #expect(warned.stderr == "warning: \(Self.exports)firebase.csv: the mapping's event \"popup_impresion\" (shown) matches no row; "
                + "did you mean \"popup_impression\" (328 rows skipped as unmapped)?\n")
        let strict = popsimInProcess(args + ["--strict", "--output", dir.path + "/r.txt"])
        #expect(strict.status == 2 && !FileManager.default.fileExists(atPath: dir.path + "/r.txt"))
    }

    /// The exports of docs/replay.md read through their mappings give no warning, strict or not.
    @Test(arguments: ["segment.csv", "firebase.csv", "server.jsonl"])
    func theBundledExportsGiveNone(_ file: String) throws {
        let stem = String(file.prefix { $0 != "." })
        let output = popsimInProcess(["replay", Self.exports + file, "--catalog", Self.catalog, "--mapping", Self.exports + stem + ".mapping.json",
                                      "--strict"])
        #expect(output.status == 0 && output.stderr == "")
    }
}
