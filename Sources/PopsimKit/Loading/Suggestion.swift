/// "did you mean" hints, chosen by edit distance.
///
/// Contract: suggests the closest candidate whose Levenshtein distance is at most a third of the
/// longer word's length (at least 1) and shorter than both words (so 'a' never suggests 'b');
/// ties go to the candidate listed first. No hint when none is close.
public enum Suggestion {
    /// `"; did you mean 'x'?"` or the empty string.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = closest(word, among: candidates) else { return "" }
        return "; did you mean '\(best)'?"
    }

    public static func closest(_ word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let limit = max(1, max(word.count, candidate.count) / 3)
            let d = distance(Array(word.lowercased()), Array(candidate.lowercased()))
            if d <= limit, d < max(word.count, candidate.count), d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
