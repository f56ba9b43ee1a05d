import PopsimCore
import PopsimReports

/// Where a command's output goes, and what it knows of its terminal and environment.
///
/// The executable passes standard output's file descriptor, so large reports stream out through
/// a buffer; tests collect in memory. Errors are collected and written by the caller.
public struct Console: Sendable {
    /// Standard output: streamed to a descriptor, or collected in memory.
    public var output: ByteWriter
    public var stderr = ""
    /// Whether standard output is a terminal (colour in `auto` mode).
    public var stdoutIsTerminal: Bool
    public var environment: [String: String]
    /// Starts a wall-clock guard of that many seconds (the executable's; nil in tests).
    public var armTimeout: (@Sendable (Int) -> Void)?
    /// Where progress lines go: the executable's stderr when it is a terminal; nil otherwise.
    public var progressSink: (@Sendable (String) -> Void)?

    /// A progress line for long work, or nil when stderr is no terminal.
    /// When a progress line shows and how often it is redrawn (tests draw every update).
    public var progressTiming = ProgressLine.Timing.terminal
    public func progressLine() -> ProgressLine? { progressSink.map { ProgressLine(draw: $0, timing: progressTiming) } }

    /// The terminal's width as the terminal reports it (ioctl), when standard output is one.
    public var terminalColumns: Int?

    /// The width human reports fit: the terminal's, else `COLUMNS`, else 80; kept within
    /// 40...1000 (a chart wider than that is not for reading).
    public var columns: Int {
        let asked = (stdoutIsTerminal ? terminalColumns : nil) ?? environment["COLUMNS"].flatMap { Int($0) } ?? 80
        return min(max(asked, 40), 1000)
    }

    public init(stdoutIsTerminal: Bool = false, environment: [String: String] = [:], stdoutFD: Int32? = nil) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.environment = environment
        output = stdoutFD.map { ByteWriter(sink: FileIO.sink($0)) } ?? ByteWriter()
    }

    /// What was written to standard output, when collecting in memory.
    public var stdout: String { output.text }

    public mutating func out(_ text: String) { output.write(text) }

    /// Where error lines go at once (the executable's stderr), so that a timeout or a signal loses
    /// none; without it (tests) they are collected in `stderr`.
    public var errorSink: (@Sendable (String) -> Void)?

    /// One error line on stderr, its control and bidi characters made visible (a file name or a
    /// popup id cannot drive the terminal).
    public mutating func error(_ line: String) {
        let text = TerminalText.safe(line) + "\n"
        if let errorSink { errorSink(text) } else { stderr += text }
    }

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
