import PopsimCore
import PopsimReports

/// The warnings of a trace read by `replay` or `fit` (`TraceWarning`), said on stderr after the
/// reading's own errors; `--strict` makes them errors that end the command with exit 2 and
/// nothing written (docs/replay.md, "No silent mapping").
enum TraceWarnings {
    /// The warnings of what `gatherers` read (every worker's) against `catalog` through `layout`.
    static func check(_ gatherers: [UserGatherer], catalog: Scenario, layout: TraceLayout) -> [TraceWarning] {
        var settings: [(variable: Int, value: StateValue, rows: Int)] = []
        var mapped: [Int] = Array(repeating: 0, count: layout.mapping.events.count)
        var unmapped = UnmappedEvents()
        for g in gatherers {
            settings += g.settingsSeen
            for (i, n) in g.mappedRows.enumerated() where i < mapped.count { mapped[i] &+= n }
            unmapped.merge(g.unmapped)
        }
        return TraceWarning.check(catalog: catalog, mapping: layout.mapping, settings: settings, mappedRows: mapped, unmapped: unmapped.counts)
    }

    /// Says `warnings` on stderr; under `strict`, as errors, and returns exit 2 (else nil: go on).
    static func say(_ warnings: [TraceWarning], path: String, strict: Bool, console: inout Console) -> ExitCode? {
        for w in warnings { console.error((strict ? "" : "warning: ") + TraceWarningText.line(w, file: path) + (strict ? " (--strict)" : "")) }
        return strict && !warnings.isEmpty ? .badInput : nil
    }
}
