/// How many times each popup is in a strategy's waiting line, indexed by popup: membership in
/// O(1), where `contains` on the line itself would make a burst of arrivals quadratic.
struct PopupCounts: Sendable {
    private var counts: [Int]

    init(popups: Int) { counts = Array(repeating: 0, count: popups) }

    func contains(_ p: PopupID) -> Bool { counts[Int(p.index)] > 0 }
    /// How many times `p` is in.
    func count(_ p: PopupID) -> Int { counts[Int(p.index)] }
    mutating func add(_ p: PopupID) { counts[Int(p.index)] += 1 }
    mutating func remove(_ p: PopupID) { counts[Int(p.index)] -= 1 }
    mutating func removeAll(_ p: PopupID) { counts[Int(p.index)] = 0 }
    /// Room for a new instance (`Strategy.instanceAdded`), counted apart from its popup.
    mutating func addInstance() { counts.append(0) }
}
