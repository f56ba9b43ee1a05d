/// The wire to a plug-in strategy (docs/plugin-protocol.md): popsim writes one line, the plug-in
/// answers with one. The CLI provides it over a process's stdin and stdout; the core only speaks
/// the protocol, so it stays free of processes, clocks and files.
///
/// Contract: `exchange` writes `line` plus a newline and returns the next line the plug-in writes,
/// without its newline, or throws why it could not (it exited, it did not answer in time).
/// `close` ends the run's conversation and never fails; `reusable` says the run ended cleanly
/// (its `finished` was answered), so a plug-in that serves many runs may be given the next one.
public protocol PluginChannel: AnyObject {
    func exchange(_ line: [UInt8]) throws(PluginFailure) -> [UInt8]
    func close(reusable: Bool)
}
