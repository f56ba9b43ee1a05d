import PopsimCore
import PopsimReports

/// Every command's options as Markdown tables (`popsim help options`; docs/cli.md holds the
/// same, and a test keeps them equal), made from the declarations.
enum OptionTables {
    static func markdown() -> String {
        PopsimCommand.all.filter(\.page.listsOptions).map { command in
            "### `popsim \(command.name)`\n\n| option | meaning |\n|---|---|\n"
                + command.options.filter { $0.name != "help" }.map { "| `\($0.label)` | \(cell($0.fullHelp)) |\n" }.joined()
        }.joined(separator: "\n")
    }

    /// Text safe in a table cell.
    static func cell(_ text: String) -> String { text.replacingAll("|", "\\|") }
}
