import PopsimCore

/// What checking one scenario under one strategy found: data for `CheckReport` and `JUnitReport`.
public struct CheckOutcome: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case pass
        /// The run differs from the golden: the unified diff.
        case differs(diff: String)
        /// No golden yet.
        case missing
        /// The scenario could not be loaded or run.
        case error(PopsimError)
        /// A `.json` found in a folder that is not a popsim scenario: reported, not checked.
        case skipped(String)
        /// A golden whose producer `check` cannot run again (a plug-in or policy file it cannot
        /// find, a strategy that no longer exists): a failure that says what to do.
        case unresolved(String)
    }

    public var scenario: String
    public var strategy: String?
    public var goldenPath: String?
    public var verdict: Verdict
    /// The actual timeline text (for `--update`).
    public var actual: String?
    /// The properties of the scenario's `expect` that this run broke (a failure whatever the
    /// golden says).
    public var brokenProperties: [PropertyVerdict] = []
    /// Properties that broke under a label their `knownToFail` names (XFAIL): not a failure.
    public var knownFailures: [PropertyVerdict] = []
    /// Properties that held under a label their `knownToFail` names (XPASS): a failure, so that
    /// the note cannot go stale (pytest's strict xfail).
    public var unexpectedPasses: [PropertyVerdict] = []
    /// Properties that hold only in part (`PropertyVerdict.note`), shown under the line.
    public var notedProperties: [PropertyVerdict] = []
    /// What the command line needs beside `--strategy` to run it again (` --policy FILE`).
    public var recordArguments = ""
    /// `--strategy`'s value to run it again, when it is not `strategy`: a plug-in the scenario
    /// names is relative to the scenario, one on the command line to the working folder.
    public var recordStrategy: String?
    /// The golden's label (`fg`, `exec-flow-manager`, `policy-rules`): the one name of this
    /// timeline in every report (text, diff header, JSON, JUnit, annotations); its golden is
    /// `<scenario stem>.<label>.timeline`, so it is unique within a scenario.
    public var label: String?
    /// No golden exists yet (the verdict is `.missing`, or `.pass` when properties are the
    /// check); `--update` writes one either way.
    public var goldenMissing = false
    /// How long the check took, in milliseconds (JUnit's `time`; nothing else prints it).
    public var elapsedMs = 0
    /// How its user runs popsim, for the commands its hints name: `popsim`, or the SwiftPM
    /// plug-in's form (`POPSIM_INVOCATION`, which the plug-ins set).
    public var invocation = "popsim"

    /// What every report names the timeline by: its golden's label (the strategy's name when
    /// there is none: a scenario that did not load has neither).
    public var shownLabel: String? { label ?? strategy }

    /// Whether the outcome counts as passed: the golden matched (or there is none and the
    /// scenario's properties are the check) and no property broke.
    public var passed: Bool { verdict == .pass && brokenProperties.isEmpty && unexpectedPasses.isEmpty }

    /// Passed, with properties failing as their `knownToFail` says (reported XFAIL).
    public var xfailed: Bool { passed && !knownFailures.isEmpty }

    /// Passed with no golden: the scenario's properties were the whole check.
    public var propertiesOnly: Bool { passed && goldenMissing }

    /// Splits the run's verdicts by what `knownToFail` says of `label` (or `strategy`): broken,
    /// broken as known, held though known to fail.
    public mutating func judge(_ verdicts: [PropertyVerdict]) {
        let names = [label, strategy].compactMap { $0 }
        for v in verdicts {
            let known = v.expectation.knownToFail.contains { names.contains($0) }
            switch (v.holds, known) {
            case (false, false): brokenProperties.append(v)
            case (false, true): knownFailures.append(v)
            case (true, true): unexpectedPasses.append(v)
            case (true, false): break
            }
            if v.note != nil { notedProperties.append(v) }
        }
    }

    public init(scenario: String, strategy: String?, goldenPath: String?, verdict: Verdict, actual: String? = nil) {
        self.scenario = scenario
        self.strategy = strategy
        self.goldenPath = goldenPath
        self.verdict = verdict
        self.actual = actual
    }
}
