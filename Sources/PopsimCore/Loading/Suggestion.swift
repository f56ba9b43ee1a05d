/// "did you mean" hints, chosen by edit distance.
///
/// Contract: suggests the closest candidate whose edit distance is at most a third of the
/// longer word's length (at least 1) and shorter than the longer word (so 'a' never suggests 'b');
/// ties go to the candidate listed first. No hint when none is close, when the word is longer
/// than `longestWord`, or when the index's work budget is spent (see `SuggestionIndex`).
public enum Suggestion {
    /// `"; did you mean 'x'?"` or the empty string.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        phrase(closest(word, among: candidates))
    }

    /// `"; did you mean 'x'?"` for a hint, the empty string for none.
    public static func phrase(_ hint: String?) -> String {
        hint.map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Words longer than this get no suggestion: typos are short, and distance grows with length.
    static let longestWord = 64

    /// `atLeast` raises the smallest distance allowed (2 for short words such as buttons).
    public static func closest(_ word: String, among candidates: [String], atLeast: Int = 1) -> String? {
        var index = SuggestionIndex(candidates)
        return index.closest(word, atLeast: atLeast)
    }

    /// The letters compared: Unicode scalars, lowercased.
    static func letters(_ word: String) -> [UInt32] { word.lowercased().unicodeScalars.map(\.value) }

    /// Optimal string alignment distance (insertions, deletions, substitutions and swaps of two
    /// neighbouring letters each count 1, so "rnu" is one step from "run") when it is at most
    /// `limit`, else nil. Only the diagonal band of width `limit` is computed and it stops as soon
    /// as a whole row exceeds the limit: O(length × limit), not O(length²). Adds the cells it
    /// computed to `work`.
    static func distance(_ a: [UInt32], _ b: [UInt32], limit: Int, work: inout Int) -> Int? {
        let n = a.count, m = b.count
        guard abs(n - m) <= limit else { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        let big = limit + 1
        var before = [Int](repeating: big, count: m + 1)
        var previous = (0...m).map { min($0, big) }
        var current = [Int](repeating: big, count: m + 1)
        for i in 1...n {
            let low = max(1, i - limit), high = min(m, i + limit)
            current[0] = min(i, big)
            if low > 1 { current[low - 1] = big }
            var rowMinimum = low == 1 ? current[0] : big
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = min(d, big)
                rowMinimum = min(rowMinimum, current[j])
            }
            work += high - low + 1
            if high < m { current[high + 1] = big }
            if rowMinimum > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[m] <= limit ? previous[m] : nil
    }
}
