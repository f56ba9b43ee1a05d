import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Mutated bundled scenarios must load or fail with errors, and every strategy must run them
/// without breaking an engine rule (a crash here kills the test process: that is a failure too).
@Suite struct MutationSmokeTests {
    static let tokens = ["0", "-1", "1e309", "\"\"", "true", "null", "[]", "{}", "\"a\"", ",", ":", "{", "]",
                         "\"enqueue\"", "\"dismiss\"", "\"then\"", "\"push\"", "\"when\"", "\"n == 1\"", "\\u0000",
                         "\"alert1\"", "\"close\"", "99999999999999999999", "\"showMs\"", "\"respond\""]

    @Test func mutatedScenariosNeverBreakTheEngine() throws {
        let dir = packageRoot.path + "/Scenarios/"
        let seeds = try FileIO.list(dir).filter { $0.hasSuffix(".json") }.map { try FileIO.read(dir + $0) }
        var random = SplitMix64(seed: 20261123)
        var loaded = 0
        for _ in 0..<TestTier.count(quick: 1500, full: 3000) {
            var bytes = seeds[random.below(seeds.count)]
            for _ in 0...random.below(3) { mutate(&bytes, &random) }
            guard (try? Pipeline.load(bytes, file: "fuzz.json")) != nil else { continue }
            loaded += 1
            // Every strategy, renderer, lint and compare, as the fuzz target runs them.
            let findings = Exercise.everything(bytes)
            #expect(findings.isEmpty, "\(findings)\n\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(loaded > 100)
    }

    func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let at = random.below(bytes.count)
        switch random.below(5) {
        case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 1: bytes.removeSubrange(at..<min(bytes.count, at + random.below(16) + 1))
        case 2:
            let end = min(bytes.count, at + random.below(40) + 1)
            bytes.insert(contentsOf: Array(bytes[at..<end]), at: random.below(bytes.count))
        default:
            // Replace a number or string-ish token with another token, keeping the JSON mostly valid.
            let token = Array(Self.tokens[random.below(Self.tokens.count)].utf8)
            var end = at
            while end < bytes.count, !",:}] \n".utf8.contains(bytes[end]) { end += 1 }
            bytes.replaceSubrange(at..<end, with: token)
        }
    }
}
