import PopsimCore

/// A unified diff of two texts, line by line, for people reading a failed check (convention 19).
///
/// Contract: `--- expected` / `+++ actual` headers with the names given, hunks with 3 lines of
/// context and `@@ -l,n +l,n @@` line numbers, ASCII `-`/`+`/space prefixes. In changed lines,
/// whitespace is made visible: a trailing space shows as `·`, a tab as `→`, a carriage return as
/// `␍`; a missing final newline gets `\ No newline at end of file`; any other control or bidi
/// character, in any line or name, is escaped (`TerminalText.safe`). Equal texts give "".
/// - Complexity: common prefix and suffix are stripped first; the rest is Myers' O((N+M)·D) diff,
///   with D capped at `maxEdits` (beyond it the differing middle is shown as one block).
public enum UnifiedDiff {
    public static let context = 3
    static let maxEdits = 2_000

    enum Edit: Equatable { case keep, delete, insert }

    public static func diff(expected: String, actual: String, expectedName: String, actualName: String) -> String {
        guard expected != actual else { return "" }
        let a = lines(expected), b = lines(actual)
        let script = editScript(a.map(\.text), b.map(\.text))
        var out = "--- \(TerminalText.safe(expectedName))\n+++ \(TerminalText.safe(actualName))\n"
        for hunk in hunks(script) {
            out += render(hunk, script: script, a: a, b: b)
        }
        return out
    }

    struct Line {
        var text: Substring
        var hasNewline: Bool
    }

    /// Splits on LF only (scalar-wise: in Swift "\r\n" is one Character), keeping any CR.
    static func lines(_ text: String) -> [Line] {
        var out: [Line] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var i = start
        while i < scalars.endIndex {
            if scalars[i] == "\n" {
                out.append(Line(text: Substring(scalars[start..<i]), hasNewline: true))
                start = scalars.index(after: i)
            }
            i = scalars.index(after: i)
        }
        if start < scalars.endIndex { out.append(Line(text: Substring(scalars[start...]), hasNewline: false)) }
        return out
    }

    /// The shortest edit script turning `a` into `b`.
    static func editScript(_ a: [Substring], _ b: [Substring]) -> [Edit] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
              a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        let middle = myers(middleA, middleB)
            ?? Array(repeating: Edit.delete, count: middleA.count) + Array(repeating: Edit.insert, count: middleB.count)
        return Array(repeating: .keep, count: prefix) + middle + Array(repeating: .keep, count: suffix)
    }

    /// Myers' greedy algorithm with a saved frontier per step for backtracking; nil past `maxEdits`.
    static func myers(_ a: [Substring], _ b: [Substring]) -> [Edit]? {
        let n = a.count, m = b.count
        if n == 0 { return Array(repeating: .insert, count: m) }
        if m == 0 { return Array(repeating: .delete, count: n) }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { return backtrack(trace, d: d, n: n, m: m, offset: offset) }
            }
        }
        return nil
    }

    static func backtrack(_ trace: [[Int]], d: Int, n: Int, m: Int, offset: Int) -> [Edit] {
        var edits: [Edit] = []
        var x = n, y = m
        for step in stride(from: d, to: 0, by: -1) {
            let v = trace[step]
            let k = x - y
            let down = k == -step || (k != step && v[offset + k - 1] < v[offset + k + 1])
            let previousK = down ? k + 1 : k - 1
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                edits.append(.keep)
                x -= 1; y -= 1
            }
            edits.append(down ? .insert : .delete)
            if down { y -= 1 } else { x -= 1 }
        }
        while x > 0 && y > 0 { edits.append(.keep); x -= 1; y -= 1 }
        return edits.reversed()
    }

    /// Ranges of the script to print: each change with up to `context` kept lines around it.
    static func hunks(_ script: [Edit]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = 0
        while i < script.count {
            guard script[i] != .keep else { i += 1; continue }
            var start = max(0, i - context)
            var end = i
            while end < script.count {
                if script[end] != .keep { end += 1; continue }
                var run = end
                while run < script.count, script[run] == .keep { run += 1 }
                if run == script.count || run - end > 2 * context {
                    end = min(script.count, end + context)
                    break
                }
                end = run
            }
            if let last = out.last, last.upperBound >= start {
                start = last.lowerBound
                out.removeLast()
            }
            out.append(start..<end)
            i = end
        }
        return out
    }

    static func render(_ hunk: Range<Int>, script: [Edit], a: [Line], b: [Line]) -> String {
        var ai = 0, bi = 0
        for e in script[..<hunk.lowerBound] {
            if e != .insert { ai += 1 }
            if e != .delete { bi += 1 }
        }
        let aCount = script[hunk].filter { $0 != .insert }.count
        let bCount = script[hunk].filter { $0 != .delete }.count
        var out = "@@ -\(start(ai, aCount)),\(aCount) +\(start(bi, bCount)),\(bCount) @@\n"
        for e in script[hunk] {
            switch e {
            case .keep:
                out += " " + TerminalText.safe(String(a[ai].text)) + "\n" + noNewline(a[ai])
                ai += 1; bi += 1
            case .delete:
                out += "-" + visible(a[ai].text) + "\n" + noNewline(a[ai])
                ai += 1
            case .insert:
                out += "+" + visible(b[bi].text) + "\n" + noNewline(b[bi])
                bi += 1
            }
        }
        return out
    }

    static func start(_ index: Int, _ count: Int) -> Int { count == 0 ? index : index + 1 }

    static func noNewline(_ line: Line) -> String { line.hasNewline ? "" : "\\ No newline at end of file\n" }

    /// Tabs, carriage returns and trailing spaces made visible; other control and bidi
    /// characters escaped (`\u{1B}`), so a golden file cannot drive the terminal (issue 30).
    static func visible(_ text: Substring) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t": body += "→"
            case "\r": body += "␍"
            default: body += TerminalText.isUnsafe(scalar) ? TerminalText.safe(String(scalar)) : String(scalar)
            }
        }
        var trailing = 0
        while body.hasSuffix(" ") { body.removeLast(); trailing += 1 }
        return body + String(repeating: "·", count: trailing)
    }
}
