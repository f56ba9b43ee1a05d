import PopsimCore
import PopsimReports

/// The guards every command that runs scenarios takes: how large an input may be, how many steps
/// and timeline lines a run may take, and how long the whole command may last
/// (docs/guarantees.md).
struct Guards {
    static let defaultTimeout = 600

    var maxBytes = FileIO.defaultMaxBytes
    var limits = RunLimits()
    var timeout = Guards.defaultTimeout

    init(_ args: Arguments, command: String) throws(PopsimError) {
        if let mb = try Self.positive(args, "max-input-mb", command) { maxBytes = mb << 20 }
        if let steps = try Self.positive(args, "max-steps", command) { limits.maxSteps = steps }
        if let lines = try Self.positive(args, "max-lines", command) { limits.maxLines = lines }
        if let text = args.value("timeout") {
            guard let seconds = Int(text), seconds >= 0 else {
                throw PopsimError.usage("\(command): --timeout: expected a number of seconds >= 0, got \(JSONValue.quoted(text))")
            }
            timeout = seconds
        }
    }

    static func positive(_ args: Arguments, _ name: String, _ command: String) throws(PopsimError) -> Int? {
        guard let text = args.value(name) else { return nil }
        let largest = Int.max >> 21
        guard let n = Int(text), n > 0, n <= largest else {
            throw PopsimError.usage("\(command): --\(name): expected an integer from 1 to \(largest), got \(JSONValue.quoted(text))")
        }
        return n
    }

    /// Starts the wall-clock guard, if the executable provides one and it is not disabled.
    func arm(_ console: Console) {
        if timeout > 0 { console.armTimeout?(timeout) }
    }
}
