/// What can be wrong with a trace row, as data: Reports words it (`TraceProblemText`), with the
/// options that fix it; the core names no flag.
public enum TraceProblem: Sendable, Equatable {
    /// CSV: a quoted field followed by something other than `,` or the row's end.
    case textAfterQuote
    /// CSV: the trace ends inside a quoted field.
    case quoteNotClosed
    /// A record (a line, or a quoted CSV field's) longer than `limit` bytes: no line break in
    /// sight, so nothing after it is read.
    case recordTooLong(limit: Int)
    /// CSV: no header row at all.
    case emptyTrace
    /// The trace is a compressed file: nothing of it is read.
    case compressed(TraceCompression)
    /// CSV: a quoted field runs past more line breaks than it may hold (`limit`): its quote is
    /// taken as left open, the record ends at its first line break and reading goes on after it.
    case quoteSpansLines(limit: Int)
    /// The header has no column for a required field.
    case missingColumn(TraceField, name: String, header: [String])
    /// A field named twice: two columns of the header, two keys of a JSON Lines row (one
    /// format took the first, the other the last: the same rows read as two users in one, one
    /// in the other).
    case duplicateField(name: String)
    /// JSON Lines: a line that is not JSON (the reader's message).
    case json(String)
    /// JSON Lines: a line that is JSON but not an object.
    case notAnObject(got: String)
    /// JSON Lines: a field that is an object or an array.
    case notAScalar(name: String, got: String)
    /// A row without a field its action needs (`what`: the words for it, nil for the field's own).
    case missingField(TraceField, name: String, what: String?)
    /// A time that does not read in the trace's unit.
    case badTime(String, unit: TraceLayout.TimeUnit)
    case unknownAction(String, known: [String], suggestion: String?)
    /// An event name neither the mapping nor popsim's words name, under a mapping of events:
    /// the row is skipped and counted by its name, never reported.
    case unmappedEvent(String)
    case unknownPopup(String, suggestion: String?)
    /// A `set` value that is not `name=value`.
    case notASetting(String)
    case unknownState(String, suggestion: String?)
    case notAnInteger(variable: String, got: String)
    case notABoolean(variable: String, got: String)
    /// A `clearUpTo` value that is neither an integer nor a named priority.
    case notAPriority(got: String)
    /// A row earlier than the user's rows before it (`unit`: the trace's, to write the time as
    /// the row did).
    case timeGoesBack(user: String, time: Int, unit: TraceLayout.TimeUnit)
    /// A user's row after other users', when the rows were said to be grouped by user.
    case comesBack(user: String)
}

/// One problem at its place in a trace.
public struct TraceError: Error, Sendable, Equatable {
    public var file: String
    public var location: SourceLocation
    public var problem: TraceProblem

    public init(file: String, location: SourceLocation, problem: TraceProblem) {
        self.file = file
        self.location = location
        self.problem = problem
    }

    /// Errors by line (stable), at most `cap`: what one reader reading the file in order reports.
    public static func inFileOrder(_ errors: [TraceError], cap: Int) -> [TraceError] {
        let sorted = errors.enumerated().sorted { ($0.element.location.line, $0.offset) < ($1.element.location.line, $1.offset) }
        return Array(sorted.prefix(cap).map(\.element))
    }
}
