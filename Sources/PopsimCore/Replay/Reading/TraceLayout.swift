/// How a trace's rows are laid out: its format, which column holds each field, and the unit of
/// its times (docs/replay.md, "The trace").
///
/// Contract: the fields are `TraceField`'s; the required ones must be present in the header (CSV)
/// or in each row (JSON Lines); other columns are ignored, so an analytics export can be read as
/// it is.
public struct TraceLayout: Sendable, Equatable {
    /// The unit of the `time` column.
    public enum TimeUnit: String, Sendable, CaseIterable {
        /// Integer milliseconds (the default).
        case ms
        /// Seconds, with a fraction of up to three digits (`1732600000.25`).
        case s
        /// ISO 8601 date and time with `Z` or an offset (`2026-11-20T08:00:00.250Z`).
        case iso8601
    }

    public var format: TraceFormat
    public var timeUnit: TimeUnit
    /// The column name of each field, by `TraceField.ordinal`.
    public var names: [String]
    /// CSV: the most line breaks a quoted field may hold (nil: any). One by default, so that a
    /// quote left open costs its own row and the next, never the rest of the trace.
    public var quotedLineBreaks: Int? = 1
    /// What the export's event names and popup names mean, and its time zone (`TraceMapping`).
    public var mapping = TraceMapping()

    public init(format: TraceFormat, timeUnit: TimeUnit = .ms, names: [String] = TraceField.allCases.map(\.rawValue)) {
        self.format = format
        self.timeUnit = timeUnit
        self.names = names
    }

    public func name(of field: TraceField) -> String { names[field.ordinal] }

    /// Reads a column map, `user=uid,time=ts`: nil names the first part that is not
    /// `field=column` over a known field, or the whole text when a column is given to two fields.
    public mutating func map(_ text: String) -> String? {
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, !pair[1].isEmpty, let field = TraceField(rawValue: String(pair[0])) else {
                return String(part)
            }
            names[field.ordinal] = String(pair[1])
        }
        return Set(names).count == names.count ? nil : text
    }
}
