import PopsimCore

/// `--shard I/N`: the variants whose plan index is I modulo N (0 <= I < N), as CI systems number
/// their parallel jobs (`JOB_COMPLETION_INDEX` counts from 0).
struct Shard {
    var index: Int
    var count: Int

    static func parse(_ text: String?, command: String = "explore") throws(PopsimError) -> Shard? {
        guard let text else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, i >= 0, i < n else {
            throw PopsimError.usage("\(command): --shard: expected I/N with 0 <= I < N <= 1000000, got \(JSONValue.quoted(text))")
        }
        return Shard(index: i, count: n)
    }
}
