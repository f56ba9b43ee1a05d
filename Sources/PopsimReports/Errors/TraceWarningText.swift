import PopsimCore

/// A trace's warnings in words (`TraceWarning` is data): one line each, `FILE: message`.
public enum TraceWarningText {
    public static func line(_ w: TraceWarning, file: String) -> String {
        "\(file): " + message(w)
    }

    public static func message(_ w: TraceWarning) -> String {
        switch w {
        case .valueNeverSet(let variable, let wanted, let popups, let seen):
            let whose = popups.count == 1 ? "the condition of \(popups[0])" : "the conditions of " + popups.joined(separator: ", ")
            let values = seen.prefix(5).map { "\($0.text) \($0.rows)" }.joined(separator: ", ") + (seen.count > 5 ? ", …" : "")
            return "no row sets \(variable) to \(wanted), which \(whose) compares it with; rows set it to \(values) "
                + "(is the mapping's 'set \(variable)' reading the right column?)"
        case .eventMatchesNoRow(let event, let meaning, let closest):
            let hint = closest.map { "; did you mean \(JSONValue.quoted($0.text)) (\($0.rows) rows skipped as unmapped)?" } ?? ""
            return "the mapping's event \(JSONValue.quoted(event)) (\(meaning)) matches no row\(hint)"
        }
    }
}
