/// Each popup's dedupe key (`dedupeKey`, else its name) as a number from 0 up to the number of
/// distinct keys, so a strategy can count what waits under each key instead of searching its
/// queue at every arrival (which made bursts quadratic).
struct DedupeNumbers: Sendable {
    /// By popup index.
    let numbers: [Int]
    let distinct: Int

    init(_ popups: [Popup]) {
        var seen: [String: Int] = [:]
        numbers = popups.map { popup in
            if let n = seen[popup.dedupeID] { return n }
            seen[popup.dedupeID] = seen.count
            return seen.count - 1
        }
        distinct = seen.count
    }

    subscript(p: PopupID) -> Int { numbers[Int(p.index)] }
}
