/// The candidates of "did you mean" prepared once (lowercased letters, a letter histogram), with
/// a work budget, so that a file naming many unknown ids among many known ones cannot make the
/// hints quadratic: each hint filters candidates by length and histogram before computing a
/// bounded distance, repeated words are answered from memory, and once `budget` units of work
/// (one per candidate looked at, one per distance cell) are spent no more hints are given.
/// Deterministic: the same input spends the same budget.
public struct SuggestionIndex: Sendable {
    /// Enough for a thousand hints among a thousand 60-letter candidates, or a few among a million.
    public static let defaultBudget = 50_000_000

    private let candidates: [String]
    private var letters: [[UInt32]] = []
    private var histograms: [Histogram] = []
    private var prepared = false
    /// What is left of the work budget (the loader shares one budget among its indexes).
    var budget: Int
    private var memo: [String: String?] = [:]

    public init(_ candidates: [String], budget: Int = SuggestionIndex.defaultBudget) {
        self.candidates = candidates
        self.budget = budget
    }

    /// How many candidates the index was built from (the loader rebuilds it when that changes).
    public var candidateCount: Int { candidates.count }

    /// The closest candidate, by the contract of `Suggestion`.
    public mutating func closest(_ word: String, atLeast: Int = 1) -> String? {
        let key = atLeast == 1 ? word : "\(atLeast)\u{0}\(word)"
        if let known = memo[key] { return known }
        let answer = search(word, atLeast: atLeast)
        memo[key] = answer
        return answer
    }

    /// Two passes: first the candidates whose histogram is within one edit (most typos), which
    /// usually finds a close hint and so shrinks the limit of the second pass over the rest.
    private mutating func search(_ word: String, atLeast: Int) -> String? {
        let a = Suggestion.letters(word)
        guard a.count <= Suggestion.longestWord, budget > 0 else { return nil }
        prepare()
        let histogram = Self.histogram(a)
        var best: (index: Int, distance: Int)?
        var work = 0
        for pass in 0..<2 {
            for i in candidates.indices {
                work += 1
                if work > budget { break }
                let bound = Self.lowerBound(histogram, histograms[i])
                guard (pass == 0) == (bound <= 1) else { continue }
                let b = letters[i]
                let longer = max(a.count, b.count)
                // Within a third of the longer word (at least `atLeast`), and shorter than it; to
                // replace the best so far, closer, or as close and listed before it.
                var limit = min(max(atLeast, longer / 3), longer - 1)
                if let best { limit = min(limit, i < best.index ? best.distance : best.distance - 1) }
                guard limit >= 0, abs(a.count - b.count) <= limit, bound <= limit,
                      let d = Suggestion.distance(a, b, limit: limit, work: &work)
                else { continue }
                best = (i, d)  // the limit let through only a better one
            }
        }
        budget -= work
        // A search cut short by the budget might have missed a closer candidate: no hint.
        guard budget >= 0, let best else { return nil }
        return candidates[best.index]
    }

    private mutating func prepare() {
        guard !prepared else { return }
        prepared = true
        letters = candidates.map(Suggestion.letters)
        histograms = letters.map(Self.histogram)
        budget -= candidates.count
    }

    /// Thirty-two 4-bit counters of letters by their low five bits (a–z apart), saturating at 15.
    static func histogram(_ letters: [UInt32]) -> Histogram {
        var counts = [UInt64](repeating: 0, count: 32)
        for l in letters { counts[Int(l & 31)] = min(counts[Int(l & 31)] + 1, 15) }
        var h = Histogram(low: 0, high: 0)
        for k in 0..<16 {
            h.low |= counts[k] << UInt64(4 * k)
            h.high |= counts[k + 16] << UInt64(4 * k)
        }
        return h
    }

    struct Histogram: Sendable {
        var low: UInt64
        var high: UInt64
    }

    /// Each edit changes the counters by at most 2 in all, so half their difference is a lower
    /// bound of the distance (saturated counters only make the bound smaller).
    static func lowerBound(_ x: Histogram, _ y: Histogram) -> Int {
        var total = 0
        for k in 0..<16 {
            let shift = UInt64(4 * k)
            total += abs(Int((x.low >> shift) & 15) - Int((y.low >> shift) & 15))
            total += abs(Int((x.high >> shift) & 15) - Int((y.high >> shift) & 15))
        }
        return (total + 1) / 2
    }
}
