import PopsimCore

/// A trace's problems in words (`TraceProblem` is data): one line each, `FILE:LINE:COL: message`,
/// naming the option that reads the trace otherwise where one would.
public enum TraceErrorText {
    public static func line(_ e: TraceError) -> String {
        "\(e.file):\(e.location): " + message(e.problem, file: e.file)
    }

    public static func message(_ problem: TraceProblem, file: String) -> String {
        switch problem {
        case .compressed(let c):
            let into = file == "-" ? "before the pipe, e.g. \(c.decompressor) FILE | popsim replay -"
                : "on the way in: \(c.decompressor) \(shellWord(file)) | popsim replay -"
            return "a \(c.rawValue)-compressed file: popsim reads a trace as text (CSV or JSON Lines); decompress it \(into) --catalog …"
        case .quoteSpansLines(let limit):
            return "a quoted field runs on past \(limit == 1 ? "a line break and the next" : "\(limit) line breaks"): its quote is taken as "
                + "left open, this line as a bad row, and the next line read as a row (a trace whose fields hold more line breaks: "
                + "--multiline-fields)"
        case .textAfterQuote: return "expected ',' or the end of the row after a quoted field"
        case .quoteNotClosed: return "a quoted field is not closed before the end of the trace"
        case .emptyTrace:
            return "the trace is empty: expected a header row, like " + TraceField.allCases.map(\.rawValue).joined(separator: ",")
        case .missingColumn(let field, let name, let header):
            return LoadProblem.expected("a column named '\(name)' in the header (or --columns \(field.rawValue)=NAME)",
                                        got: header.map { JSONValue.quoted($0) }.joined(separator: ", ")).message
        case .duplicateField(let name): return "the field \(JSONValue.quoted(name)) is named twice: name it once"
        case .json(let message): return message
        case .notAnObject(let got): return LoadProblem.expected("a JSON object per line", got: got).message
        case .notAScalar(let name, let got): return LoadProblem.expected("a string or a number for \"\(name)\"", got: got).message
        case .missingField(let field, let name, let what):
            return LoadProblem.expected("\(what ?? "the \(field.rawValue)") in column '\(name)'", got: "nothing").message
        case .badTime(let text, let unit): return LoadProblem.expected(expected(unit), got: JSONValue.quoted(text)).message
        case .recordTooLong(let limit):
            return "a record longer than \(limit >> 20) MiB without a line break: this is not a trace of rows (nothing after it is read)"
        case .unmappedEvent(let name): return "the event \(JSONValue.quoted(name)) is not mapped (skipped)"
        case .unknownAction(let word, let known, let suggestion):
            return LoadProblem.expectedOneOf(known, got: JSONValue.quoted(word), suggestion: suggestion).message
        case .unknownPopup(let name, let suggestion): return LoadProblem.unknownPopup(name, suggestion: suggestion).message
        case .notASetting(let text): return LoadProblem.expected("name=value", got: JSONValue.quoted(text)).message
        case .unknownState(let name, let suggestion): return LoadProblem.unknownState(name, suggestion: suggestion).message
        case .notAnInteger(let variable, let got): return LoadProblem.expected("an integer for \(variable)", got: JSONValue.quoted(got)).message
        case .notABoolean(let variable, let got): return LoadProblem.expected("true or false for \(variable)", got: JSONValue.quoted(got)).message
        case .notAPriority(let got):
            let names = ScenarioLoader.namedPriorities.map(\.0).joined(separator: ", ")
            return LoadProblem.expected("a priority (an integer from \(Int32.min) to \(Int32.max), or \(names))", got: JSONValue.quoted(got)).message
        case .timeGoesBack(let user, let time, let unit):
            // Without the row before (its time and line): the same words whichever worker, or partition, found it.
            return LoadProblem.expected("a time no earlier than user \(JSONValue.quoted(user))'s rows before it",
                                        got: TraceTimeText.text(time, unit: unit)).message
        case .comesBack(let user):
            return LoadProblem.expected("the rows of user \(JSONValue.quoted(user)) together (--grouped)",
                                        got: "another row of it after other users' (leave out --grouped)").message
        }
    }

    /// A path as one word a POSIX shell reads back (single quotes unless it needs none); a path
    /// with a control character is shown as FILE, never raw.
    static func shellWord(_ path: String) -> String {
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "FILE" }
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._/-+:@%,=".unicodeScalars.contains($0)) }
        return plain ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// What each unit of `--time-unit` looks like, for a time that does not read.
    public static func expected(_ unit: TraceLayout.TimeUnit) -> String {
        switch unit {
        case .ms: return "a time in integer milliseconds (other units: --time-unit s or iso8601)"
        case .s: return "a time in seconds, like 1732600000.25"
        case .iso8601: return "an ISO 8601 time, like 2026-11-20T08:00:00.250Z (one without a zone is UTC unless --time-zone gives its offset)"
        }
    }
}
