/// Where a command's output goes, and what it knows of its terminal and environment.
///
/// The executable passes the real streams; tests pass buffers. Output is collected per stream
/// and written by the caller, so nothing here touches the process.
public struct Console: Sendable {
    public var stdout = ""
    public var stderr = ""
    /// Whether standard output is a terminal (colour in `auto` mode).
    public var stdoutIsTerminal: Bool
    public var environment: [String: String]

    public init(stdoutIsTerminal: Bool = false, environment: [String: String] = [:]) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.environment = environment
    }

    public mutating func out(_ text: String) { stdout += text }

    /// One error line on stderr.
    public mutating func error(_ line: String) { stderr += line + "\n" }

    /// Whether `CI` is set to something other than empty, `false` or `0`.
    public var isCI: Bool {
        guard let ci = environment["CI"] else { return false }
        return !ci.isEmpty && ci != "false" && ci != "0"
    }

    /// Colour only on a terminal, never with `NO_COLOR` set non-empty or `TERM=dumb`; an explicit
    /// `--color` wins over both (convention 17).
    public func style(for mode: ColorMode) -> TextStyle {
        switch mode {
        case .always: return .color
        case .never: return .plain
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
            if environment["TERM"] == "dumb" { return .plain }
            return stdoutIsTerminal ? .color : .plain
        }
    }
}

/// The `--color` setting.
public enum ColorMode: String, Sendable, CaseIterable {
    case auto, always, never
}
