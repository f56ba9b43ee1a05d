import PopsimCore

/// The line `run` and `compare` print under their header when a scenario has uncertain arrivals:
/// what they ran is its nominal variant (windows at their start, batches in file order, every
/// maybe-event happening); `explore` runs the others.
public enum NominalVariantNote {
    public static func text(_ scenario: Scenario) -> String {
        let n = scenario.uncertainties.count
        return "nominal variant of \(n) uncertain event\(n == 1 ? "" : "s") ('popsim explore' runs the others)"
    }
}
