import PopsimCore

/// SVG and HTML charts of more than about 100,000 marks are too big for a browser to open well (a
/// million events make an SVG of 133 MB): refused without `--force`; the trace format is for
/// runs that big.
enum ChartSize {
    static let limit = 100_000

    static func refusal(_ marks: Int, args: Arguments, command: String) -> PopsimError? {
        guard marks > limit, !args.flag("force") else { return nil }
        return .usage("\(command): the chart would draw about \(marks) marks (more than \(limit)); "
            + "use --format trace for Perfetto, or --force")
    }
}
