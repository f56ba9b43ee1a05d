/// One of N parts of a piece of work, as CI systems number their parallel jobs (I from 0, as
/// `JOB_COMPLETION_INDEX` does): `explore`'s variants whose plan index is I modulo N, `replay`'s
/// users whose id hashes (FNV-1a 64) to I modulo N. One parse, one membership test, one check
/// that the reports to merge are every part once.
public struct Shard: Sendable, Equatable {
    public let index: Int
    public let count: Int
    /// The most parts a piece of work may be cut into.
    public static let maxCount = 1_000_000

    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maxCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// `I/N` as given on a command line (`Int` reads each side); nil when it is not one.
    public static func parse(_ text: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        return Shard(index: i, count: n)
    }

    /// `I/N` as popsim writes it into a report (digits, no leading zeros: `00/2` is not shard 0).
    public static func written(_ text: String) -> Shard? {
        guard let shard = parse(text), shard.text == text else { return nil }
        return shard
    }

    /// How a report writes it.
    public var text: String { "\(index)/\(count)" }

    /// Whether a user's hash is this shard's: its low digits, modulo the count.
    public func contains(hash: UInt64) -> Bool { hash % UInt64(count) == UInt64(index) }

    /// Whether the plan's `n`-th item is this shard's.
    public func contains(item n: Int) -> Bool { n % count == index }

    /// Why reports cannot be merged into the whole they are parts of.
    public enum MergeProblem: Error, Sendable, Equatable {
        /// Report `at` is not a shard's.
        case notAShard(at: Int)
        /// Report `at` is shard `shard`, the ones before it of `others` parts.
        case otherCount(at: Int, shard: Shard, others: Int)
        /// Reports `first` and `at` are the same shard.
        case twice(first: Int, at: Int, shard: Shard)
        /// No report is shard `index` of `count`.
        case missing(index: Int, count: Int)
    }

    /// The count of parts when `shards` (each report's, nil for a report of no shard) are every
    /// part of one whole exactly once; else the first problem, in the reports' order.
    public static func checkMerge(_ shards: [Shard?]) -> Result<Int, MergeProblem> {
        var seen: [Int: Int] = [:]
        var count: Int?
        for (at, shard) in shards.enumerated() {
            guard let shard else { return .failure(.notAShard(at: at)) }
            if let count, count != shard.count { return .failure(.otherCount(at: at, shard: shard, others: count)) }
            count = shard.count
            if let first = seen[shard.index] { return .failure(.twice(first: first, at: at, shard: shard)) }
            seen[shard.index] = at
        }
        let n = count ?? 0
        if let missing = (0..<n).first(where: { seen[$0] == nil }) { return .failure(.missing(index: missing, count: n)) }
        return .success(n)
    }
}
