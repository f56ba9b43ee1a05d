/// How many queued popups wait under each dedupe key, so an arrival asks in O(1) whether one with
/// its key waits; what is on screen is searched only when a rule asks.
///
/// Why one part: notistack (`preventDuplicate`) and `policy` (`dedupe`, `dedupeBy`) counted the
/// same way. Keys are `DedupeNumbers` (`dedupeKey`, else the name), or each popup its own when
/// `byKey` is false.
struct DedupeCounts: Sendable {
    private var ids: [Int]
    private var queued: [Int]

    init(_ popups: [Popup], byKey: Bool = true) {
        let numbers = byKey ? DedupeNumbers(popups) : nil
        ids = numbers?.numbers ?? Array(popups.indices)
        queued = Array(repeating: 0, count: numbers?.distinct ?? popups.count)
    }

    /// A new instance of `base` (`Strategy.instanceAdded`) has its popup's key: a second request
    /// of a popup is its duplicate.
    mutating func addInstance(of base: PopupID) { ids.append(ids[Int(base.index)]) }

    mutating func add(_ p: PopupID) { queued[ids[Int(p.index)]] += 1 }
    mutating func remove(_ p: PopupID) { queued[ids[Int(p.index)]] -= 1 }

    /// Whether a popup with `p`'s key waits.
    func isQueued(_ p: PopupID) -> Bool { queued[ids[Int(p.index)]] > 0 }

    /// Whether one of `popups` has `p`'s key.
    func sharesKey(_ p: PopupID, with popups: [PopupID]) -> Bool {
        let id = ids[Int(p.index)]
        return popups.contains { ids[Int($0.index)] == id }
    }
}
