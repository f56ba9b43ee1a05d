/// A run's scenario as its file declares it: `scenario` also holds the instances the run made
/// (`InstancePolicy.perRequest`, after the file's popups), which renderers need to name; what
/// reads the file (lint: fields set, buttons pressed, what the script takes off) needs the
/// file's popups only.
extension RunResult {
    /// How many of `scenario.popups` are the file's (the rest are instances).
    public var filePopupCount: Int {
        let bases = timeline.bases
        guard !bases.isEmpty else { return scenario.popups.count }
        return bases.indices.first { bases[$0] != Int32($0) } ?? min(bases.count, scenario.popups.count)
    }

    /// `scenario` without the run's instances (itself when the run made none).
    public var fileScenario: Scenario {
        let n = filePopupCount
        guard n < scenario.popups.count else { return scenario }
        var s = scenario
        s.popups.removeSubrange(n...)
        return s
    }
}
