/// How a trace's rows are laid out: its format, which column holds each field, and the unit of
/// its times (docs/replay.md, "The trace").
///
/// Contract: the five fields are `user`, `time`, `action`, `popup` and `value`; `user`, `time` and
/// `action` must be present in the header (CSV) or in each row (JSON Lines); other columns are
/// ignored, so an analytics export can be read as it is.
public struct TraceLayout: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case csv, jsonl
    }

    /// The unit of the `time` column.
    public enum TimeUnit: String, Sendable, CaseIterable {
        /// Integer milliseconds (the default).
        case ms
        /// Seconds, with a fraction of up to three digits (`1732600000.25`).
        case s
        /// ISO 8601 date and time with `Z` or an offset (`2026-11-20T08:00:00.250Z`).
        case iso8601
    }

    /// The fields a row may hold, in the default header's order.
    public enum Field: String, Sendable, CaseIterable {
        case user, time, action, popup, value
    }

    public var format: Format
    public var timeUnit: TimeUnit
    /// The column name of each field, in `Field.allCases` order.
    public var names: [String]

    public init(format: Format, timeUnit: TimeUnit = .ms, names: [String] = Field.allCases.map(\.rawValue)) {
        self.format = format
        self.timeUnit = timeUnit
        self.names = names
    }

    public func name(of field: Field) -> String { names[Field.allCases.firstIndex(of: field) ?? 0] }

    /// Reads `--columns user=uid,time=ts`: nil names the first part that is not `field=column`
    /// over a known field, or a column given to two fields.
    public mutating func map(_ text: String) -> String? {
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, !pair[1].isEmpty, let i = Field.allCases.firstIndex(where: { $0.rawValue == pair[0] }) else {
                return String(part)
            }
            names[i] = String(pair[1])
        }
        return Set(names).count == names.count ? nil : text
    }

    /// The format a file name implies: `.jsonl` / `.ndjson` (also under `.gz` stripped by the
    /// caller) read as JSON Lines, anything else as CSV; standard input is told by its first byte.
    public static func format(path: String) -> Format? {
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") { return .jsonl }
        if path.hasSuffix(".csv") { return .csv }
        return nil
    }
}
