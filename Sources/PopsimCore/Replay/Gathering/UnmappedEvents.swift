/// The rows a mapping skipped, by event name: bounded (issue 66, cause 18: 1.5 million rows each
/// with a name of its own peaked at 735 MB under `--memory 64M`). At most `listed` names are
/// kept, each at most `longestName` bytes; past either, the rows still count (`unlisted`) and
/// no name is listed at all, so that which names a report lists never depends on how the rows
/// were split between workers or shards: over `listed` names in all is over it in any split
/// that holds them all (`merge` folds a union past it the same way).
public struct UnmappedEvents: Sendable, Equatable {
    public static let listed = 1_000
    public static let longestName = 256

    /// Rows per listed name (empty once `unlisted` is above 0).
    public private(set) var counts: [String: Int] = [:]
    /// Rows whose names are not listed.
    public private(set) var unlisted = 0

    public init() {}

    public var isEmpty: Bool { counts.isEmpty && unlisted == 0 }

    public mutating func add(_ name: String) {
        if unlisted > 0 || name.utf8.count > Self.longestName {
            unlisted &+= 1
            fold()
            return
        }
        counts[name, default: 0] &+= 1
        fold()
    }

    public mutating func merge(_ other: UnmappedEvents) {
        counts.merge(other.counts, uniquingKeysWith: &+)
        unlisted &+= other.unlisted
        fold()
    }

    /// Past the bound (or with any row unlisted): every row unlisted, no name kept.
    private mutating func fold() {
        guard unlisted > 0 || counts.count > Self.listed else { return }
        unlisted = counts.values.reduce(unlisted) { $0 &+ $1 }
        counts = [:]
    }
}
