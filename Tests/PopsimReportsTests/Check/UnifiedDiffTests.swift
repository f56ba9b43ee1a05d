import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI

@Suite struct UnifiedDiffTests {
    let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"

    @Test func hunksHaveThreeLinesOfContextAndLineNumbers() {
        var lines = old.split(separator: "\n").map(String.init)
        lines[1] = "line two"
        lines.remove(at: 15)
        lines.insert("new", at: 18)
        let new = lines.joined(separator: "\n") + "\n"
        #expect(UnifiedDiff.diff(expected: old, actual: new, expectedName: "exp", actualName: "act") == """
            --- exp
            +++ act
            @@ -1,5 +1,5 @@
             line 1
            -line 2
            +line two
             line 3
             line 4
             line 5
            @@ -13,8 +13,8 @@
             line 13
             line 14
             line 15
            -line 16
             line 17
             line 18
             line 19
            +new
             line 20

            """)
    }

    @Test func whitespaceIsMadeVisible() {
        let diff = UnifiedDiff.diff(expected: "a\nb\n", actual: "a  \nb\r\nc\td", expectedName: "e", actualName: "a")
        #expect(diff == """
            --- e
            +++ a
            @@ -1,2 +1,3 @@
            -a
            -b
            +a··
            +b␍
            +c→d
            \\ No newline at end of file

            """)
    }

    @Test func equalTextsGiveNothingAndEmptySidesWork() {
        #expect(UnifiedDiff.diff(expected: "x\n", actual: "x\n", expectedName: "e", actualName: "a") == "")
        #expect(UnifiedDiff.diff(expected: "", actual: "x\n", expectedName: "e", actualName: "a") == "--- e\n+++ a\n@@ -0,0 +1,1 @@\n+x\n")
        #expect(UnifiedDiff.diff(expected: "x\n", actual: "", expectedName: "e", actualName: "a") == "--- e\n+++ a\n@@ -1,1 +0,0 @@\n-x\n")
    }

    @Test func theEditScriptIsMinimal() {
        let a = "abcabba".map { Substring(String($0)) }, b = "cbabac".map { Substring(String($0)) }
        let script = UnifiedDiff.editScript(a, b)
        #expect(script.filter { $0 != .keep }.count == 5)  // Myers' paper: D = 5
        #expect(script.filter { $0 != .insert }.count == a.count)
        #expect(script.filter { $0 != .delete }.count == b.count)
    }
}
