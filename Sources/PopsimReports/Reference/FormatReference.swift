import PopsimCore

/// The scenario format's reference tables, made from the vocabulary (`ActionKind`, `PopupField`)
/// and the registry: docs/scenario-format.md holds them verbatim between markers, and a test
/// keeps it so, which is what makes those tables true.
public enum FormatReference {
    /// Both tables under their headings, as docs/scenario-format.md shows them.
    public static func markdown() -> String {
        "### Actions (`events` and `then`)\n\n" + actionsTable() + "\n### Popup fields\n\n" + fieldsTable()
    }

    /// Every script action: its value, what it does, which strategies hear it, an example.
    public static func actionsTable() -> String {
        var out = "| action | value | what it does | modelled by | example |\n|---|---|---|---|---|\n"
        for kind in ActionKind.allCases {
            let by = kind.reachesStrategy ? names { $0.modelledActions.contains(kind) } : "every strategy (the engine)"
            out += "| `\(kind.keyword)` | \(value(kind.argument)) | \(kind.meaning) | \(by) | `\(kind.example)` |\n"
        }
        return out
    }

    /// Every popup field: its values, what unset means, what it does, who models it, an example.
    public static func fieldsTable() -> String {
        var out = "| field | values | unset | what it does | modelled by | example |\n|---|---|---|---|---|---|\n"
        for field in PopupField.allCases {
            let by = field.isEngine ? "every strategy (the engine)" : names { $0.modelledFields.contains(field) }
            out += "| `\(field.key)` | \(cell(field.values)) | \(cell(field.unset)) | \(cell(field.meaning)) | \(by) | `\(field.example)` |\n"
        }
        return out
    }

    static func names(_ models: (StrategyEntry) -> Bool) -> String {
        let list = StrategyRegistry.all.filter(models).map { "`\($0.name)`" }
        return list.isEmpty ? "none" : list.joined(separator: ", ")
    }

    static func value(_ argument: ActionKind.Argument) -> String {
        switch argument {
        case .popups: return "a popup id, or a list of ids"
        case .popup: return "a popup id"
        case .press: return "`{\"popup\": id, \"button\": name}`"
        case .state: return "`{\"name\": value, …}` (declared state)"
        case .flag: return "`true`"
        case .screen: return "a screen name"
        case .timerTarget: return "a popup id, or `true` for all"
        case .priority: return "a priority (as a popup's)"
        }
    }

    /// Text safe in a markdown table cell.
    static func cell(_ text: String) -> String { text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
