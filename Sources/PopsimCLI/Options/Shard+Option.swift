import PopsimCore

extension Shard {
    /// `--shard I/N` of `command`, or nil when not given.
    static func option(_ args: Arguments, command: String) throws(PopsimError) -> Shard? {
        guard let text = args.value("shard") else { return nil }
        guard let shard = Shard.parse(text) else {
            throw PopsimError.usage("\(command): --shard: expected I/N with 0 <= I < N <= \(Shard.maxCount), got \(JSONValue.quoted(text))")
        }
        return shard
    }
}
