import PopsimCore
import PopsimReports

extension GanttStyle {
    /// The console's width; ASCII with `--ascii` or when the locale is not UTF-8; `style` colours.
    init(console: Console, args: Arguments, style: TextStyle = .plain) {
        self.init(columns: console.columns, ascii: args.flag("ascii") || !console.isUTF8, style: style)
    }
}

extension Console {
    /// Whether the locale (LC_ALL, else LC_CTYPE, else LANG) says UTF-8.
    var isUTF8: Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                let v = value.lowercased()
                return v.contains("utf-8") || v.contains("utf8")
            }
        }
        return false
    }
}
