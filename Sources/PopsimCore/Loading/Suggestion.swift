/// "did you mean" hints, chosen by edit distance.
///
/// Contract: suggests the closest candidate whose edit distance is at most a third of the
/// longer word's length (at least 1) and shorter than both words (so 'a' never suggests 'b');
/// ties go to the candidate listed first. No hint when none is close.
public enum Suggestion {
    /// `"; did you mean 'x'?"` or the empty string.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = closest(word, among: candidates) else { return "" }
        return "; did you mean '\(best)'?"
    }

    /// Words longer than this get no suggestion: typos are short, and distance is quadratic.
    static let longestWord = 64

    /// `atLeast` raises the smallest distance allowed (2 for short words such as buttons).
    public static func closest(_ word: String, among candidates: [String], atLeast: Int = 1) -> String? {
        let length = word.count
        guard length <= longestWord else { return nil }
        let letters = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let limit = max(atLeast, max(length, candidate.count) / 3)
            guard abs(length - candidate.count) <= limit else { continue }
            let d = distance(letters, Array(candidate.lowercased()))
            if d <= limit, d < max(word.count, candidate.count), d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring letters each count 1 (so "rnu" is one step from "run").
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
