import Testing
@testable import PopsimCore
import PopsimTestSupport

/// "did you mean": the bounded distance agrees with the full one, and the work is bounded.
@Suite("did you mean")
struct SuggestionTests {
    /// The full optimal string alignment distance, as the hints were first computed.
    static func fullDistance(_ a: [UInt32], _ b: [UInt32]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    @Test func theBandedDistanceAgreesWithTheFullOne() {
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        func word() -> [UInt32] { (0..<next(12)).map { _ in UInt32(97 + next(4)) } }
        for _ in 0..<5000 {
            let a = word(), b = word()
            let full = Self.fullDistance(a, b)
            for limit in 0...6 {
                var work = 0
                let banded = Suggestion.distance(a, b, limit: limit, work: &work)
                #expect(banded == (full <= limit ? full : nil), "\(a) \(b) limit \(limit)")
            }
        }
    }

    /// The contract, computed the slow way: every candidate, the full distance.
    static func reference(_ word: String, _ candidates: [String], atLeast: Int) -> String? {
        let a = Suggestion.letters(word)
        var best: (String, Int)?
        for c in candidates {
            let b = Suggestion.letters(c)
            let longer = max(a.count, b.count)
            let d = fullDistance(a, b)
            if d <= max(atLeast, longer / 3), d < longer, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }

    @Test func theIndexAgreesWithTheContract() {
        var state: UInt64 = 3
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        func word() -> String { String((0..<(1 + next(10))).map { _ in Character(Unicode.Scalar(UInt8(97 + next(5)))) }) }
        for _ in 0..<300 {
            let candidates = (0..<next(30)).map { _ in word() }
            var index = SuggestionIndex(candidates)
            for _ in 0..<10 {
                let w = word(), atLeast = 1 + next(2)
                #expect(index.closest(w, atLeast: atLeast) == Self.reference(w, candidates, atLeast: atLeast), "\(w) in \(candidates)")
            }
        }
    }

    @Test func theClosestWinsAndTiesGoToTheFirstListed() {
        #expect(Suggestion.closest("evnets", among: ["popsim", "events"]) == "events")
        #expect(Suggestion.closest("abcd", among: ["abxd", "abyd"]) == "abxd")
        #expect(Suggestion.closest("abcdef", among: ["abxdef", "abcdef0"]) == "abxdef")
        #expect(Suggestion.closest("a", among: ["b"]) == nil)
        #expect(Suggestion.closest("ok", among: ["no"], atLeast: 2) == nil)
        #expect(Suggestion.closest("Run", among: ["run"]) == "run")
    }

    @Test func hintsStopWhenTheBudgetIsSpent() {
        let names = (0..<1000).map { "popup\($0)" }
        var index = SuggestionIndex(names, budget: 20_000)
        var answered = 0
        for i in 0..<100 where index.closest("popup\(i)x") != nil { answered += 1 }
        // Preparing costs 1,000, each search at least 1,000 more: at most 19 answers, then none.
        #expect(answered > 0 && answered < 20)
        #expect(index.closest("popup99x") == nil)
        // A word already answered is answered again from memory, at no cost.
        #expect(index.closest("popup0x") == "popup0")
    }

    @Test func unknownIdsAmongLongNamesAllGetTheirHint() {
        var state: UInt64 = 11
        let names = (0..<400).map { _ in
            String((0..<60).map { _ -> Character in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Character(Unicode.Scalar(UInt8(97 + (state >> 33) % 26)))
            })
        }
        let popups = names.map { #""\#($0)": {}"# }.joined(separator: ",")
        let events = names.indices.map { #"{"at": \#($0), "enqueue": "\#(names[$0].dropLast())"}"# }.joined(separator: ",")
        let lines = loadErrors(#"{"popsim": 1, "popups": {\#(popups)}, "events": [\#(events)]}"#)
        #expect(lines.count == 400)
        #expect(lines.filter { !$0.contains("did you mean") } == [])
        #expect(lines.first?.hasSuffix("; did you mean '\(names[0])'?") == true)
    }
}
