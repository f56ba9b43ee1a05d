import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

@Suite struct LintTests {
    func lint(_ path: String, arguments: [String] = []) -> (ExitCode, String, String) {
        var console = Console()
        let code = Popsim.main(["lint", packageRoot.path + "/" + path] + arguments, console: &console)
        let root = packageRoot.path + "/"
        return (code, console.stdout.replacingOccurrences(of: root, with: ""), console.stderr)
    }

    @Test func findsTheLostLatentPopup() {
        let (code, out, err) = lint("Scenarios/fg-latent-animated-lost.json")
        #expect(code == .difference && err == "")
        #expect(out == "Scenarios/fg-latent-animated-lost.json: 1300 ms: lost: fg lost 'promo': it will never show\n1 hazard, 0 notes\n")
    }

    @Test func findsTheRemoveOverlap() {
        let (code, out, _) = lint("Scenarios/fg-remove.json")
        #expect(code == .difference)
        #expect(out == """
            Scenarios/fg-remove.json: 1000 ms: untracked: fg stopped tracking 'sheet' while it is on screen
            Scenarios/fg-remove.json: 1000 ms: overlap: 'toast' shown while another popup is on screen
            2 hazards, 0 notes

            """)
    }

    /// FGPopupScheduler calls the show of a popup on screen again (issue 29): a hazard lint names.
    @Test func findsTheShowCalledAgain() {
        let (code, out, _) = lint("Scenarios/fg-readd-while-leaving.json")
        #expect(code == .difference)
        #expect(out == """
            Scenarios/fg-readd-while-leaving.json: 1401 ms: untracked: fg stopped tracking 'B' while it is on screen
            Scenarios/fg-readd-while-leaving.json: 2401 ms: shown-again: fg called the show of 'B' again while it is on screen
            Scenarios/fg-readd-while-leaving.json: 2601 ms: lost: fg lost 'B': it will never show
            3 hazards, 0 notes

            """)
        let (_, again, _) = lint("Scenarios/fg-clear-completion-overlap.json")
        #expect(again.contains("Scenarios/fg-clear-completion-overlap.json: 2500 ms: shown-again: fg called the show of 'A' again while it is on screen\n"))
    }

    @Test func listsIgnoredFieldsAndActionsAsNotes() {
        let (code, out, _) = lint("Scenarios/fg-suspend-resume.json", arguments: ["--strategy", "jc-fifo"])
        #expect(code == .success)
        #expect(out == """
            Scenarios/fg-suspend-resume.json:13:5: events[1].suspend: ignored by jc-fifo
            Scenarios/fg-suspend-resume.json:15:5: events[3].resume: ignored by jc-fifo
            0 hazards, 2 notes

            """)
    }

    @Test func aCleanScenarioExitsZero() {
        let (code, out, _) = lint("Scenarios/fg-swift-example.json")
        #expect(code == .success && out == "0 hazards, 0 notes\n")
    }

    @Test func aPopupWhoseConditionNeverHeldIsStalled() throws {
        let text = """
            {"popsim": 1, "strategy": "fg", "state": {"screen": "Main"},
             "popups": {"blue": {"when": "screen == 'Blue'"}, "held": {"when": "screen == 'Main'"}, "busy": {}},
             "events": [{"at": 0, "enqueue": ["busy", "held", "blue"]}]}
            """
        let result = try run(text)
        let entry = try #require(StrategyRegistry.entry(named: "fg"))
        #expect(result.stateHistory.isEmpty)
        let busy = "test.json: end: never leaves: 'busy' has no duration and no respond, and nothing in the script dismisses it: it blocks the screen for good"
        // Without the state history the stall cannot be proven: `blue` is a note, held back by its condition.
        #expect(Lint.findings(result, entry: entry).map(\.line) == [
            "test.json: end: held back: 'blue' is still queued, held back by its condition (screen == 'Blue')", busy,
        ])
        let scenario = try loadScenario(text).get()
        let traced = try RunConfiguration.resolve(scenario, strategy: nil, overrides: [])
            .run(scenario, limits: RunLimits(recordStates: true))
        // `held` waits behind `busy` though its condition holds: not stalled. `blue` never could show.
        #expect(Lint.findings(traced, entry: entry).map(\.line) == [
            "test.json: end: stalled: 'blue' is still queued and its condition never held while it waited (screen == 'Blue')",
            busy,
        ])
    }

    /// A run's instances (notistack's second snack, `a#2`) are not the file's popups: lint counts
    /// and locates the file's fields once, and a button pressed on `a` is pressed on `a#2` too
    /// (before, each line came twice and `a#2`'s `ok` was "never pressed").
    @Test func instancesAreNotLintedAsTheFilesPopups() throws {
        let text = #"{"popsim": 1, "strategy": "notistack", "popups": {"a": {"duration": "forever", "level": "high", "then": {"ok": []}}}, "#
            + #""events": [{"at": 0, "enqueue": "a"}, {"at": 10, "enqueue": "a"}, {"at": 500, "press": {"popup": "a", "button": "ok"}}]}"#
        let result = try run(text)
        #expect(result.timeline.subjects == ["a", "a#2"] && result.filePopupCount == 1)
        let entry = try #require(StrategyRegistry.entry(named: "notistack"))
        #expect(Lint.findings(result, entry: entry).map(\.line) == ["test.json:1:89: popups.a.level: ignored by notistack"])
        #expect(Lint.ignoredSummary(result) == ["test.json: notistack ignores the popup field 'level' (set on 1 popup; see 'popsim lint')"])
    }

    /// A `then` branch that nothing presses is a note (an alternative the script does not take);
    /// answering a popup never enqueued is a warning of its own.
    @Test func unpressedButtonsAndAnswersToPopupsNeverEnqueued() throws {
        let text = """
            {"popsim": 1, "strategy": "fg", "popups": {"rate": {"then": {"later": []}}, "x": {}},
             "events": [{"at": 0, "enqueue": "rate"}, {"at": 5, "dismiss": "x"}]}
            """
        let result = try run(text)
        let entry = try #require(StrategyRegistry.entry(named: "fg"))
        #expect(Lint.findings(result, entry: entry).map(\.line) == [
            "test.json:1:62: popups.rate.then.later: no button 'later' of 'rate' is ever pressed: its actions never run",
            "test.json: 5 ms: not-enqueued: 'x' was answered but never enqueued: nothing happened",
            "test.json: end: never leaves: 'rate' has no duration and no respond, and nothing in the script dismisses it: it blocks the screen for good",
        ])
    }

    @Test func jsonFindings() throws {
        var console = Console()
        let path = packageRoot.path + "/Scenarios/first-launch.json"
        #expect(Popsim.main(["lint", path, "--format", "json"], console: &console) == .difference)
        #expect(console.stdout == """
            {"popsim": 1, "hazards": 1, "notes": 1, "findings": [
              {"file": "\(path)", "hazard": true, "line": "\(path): 240 ms: lost: fg lost 'campaign': it will never show"},
              {"file": "\(path)", "hazard": false, "line": "\(path): 9000 ms: not-shown: 'campaign' was answered while not fully shown: nothing happened"}
            ]}

            """)
    }

    @Test func badInputIsExitCode2() {
        var console = Console()
        #expect(Popsim.main(["lint"], console: &console) == .badInput)
        #expect(console.stderr == "popsim: lint: expected at least one scenario file; see 'popsim help lint'\n")
    }
}

@Suite struct LoadOnlyTests {
    @Test func loadOnlyValidatesWithoutRunning() {
        var console = Console()
        let path = packageRoot.path + "/Scenarios/jc-article-demo.json"
        #expect(Popsim.main(["lint", "--load-only", path], console: &console) == .success)
        #expect(console.stdout == "\(path): 4 popups, 1 events\n")
        var bad = Console()
        #expect(Popsim.main(["lint", "--load-only", "/nonexistent.json"], console: &bad) == .badInput)
        #expect(bad.stderr == "/nonexistent.json: cannot read: No such file or directory\n")
    }
}

/// `ActionKind.ordinal` indexes arrays of counts: it is each kind's place in `allCases`.
@Suite struct ActionKindOrdinalTests {
    @Test func ordinalsArePlacesInAllCases() {
        for (i, kind) in ActionKind.allCases.enumerated() { #expect(Int(kind.ordinal) == i, "\(kind)") }
    }
}

/// `PopupField.ordinal` is a popup's bit in `PopupFieldSet`, which iterates in `allCases` order.
@Suite struct PopupFieldOrdinalTests {
    @Test func ordinalsArePlacesInAllCases() {
        for (i, field) in PopupField.allCases.enumerated() { #expect(field.ordinal == i, "\(field)") }
    }

    @Test func aSetIteratesInDeclarationOrder() {
        var set = PopupFieldSet()
        for field in [PopupField.maxShows, .priority, .then, .maxShows] { set.insert(field) }
        #expect(Array(set) == [.priority, .then, .maxShows])
        #expect(set.count == 3 && set.contains(.then) && !set.contains(.key))
    }
}
