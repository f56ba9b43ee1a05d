/// The popups a scheduler with slots has on screen, oldest first, a leaving one holding its slot
/// until `gone`; and the two answers to full slots that make room: notistack's eviction of the
/// oldest (one at a time, a popup still entering flagged to close when its entrance ends) and
/// react-hot-toast's hard cap (the oldest goes at once, no exit).
///
/// Why one part: notistack and `policy` (`overflow: evict | cut`) kept the same screen and the
/// same two rules apart. Contract: membership and leaving are flags by popup index (O(1));
/// `order` is oldest first; eviction spares popups without a display time (persistent) unless
/// every one is, and does nothing while one is leaving or flagged.
struct ScreenSlots: Sendable {
    /// On screen, oldest first, leaving ones included until `gone`.
    private(set) var order: [PopupID] = []
    private var present: [Bool]
    private var leaving: [Bool]
    private(set) var leavingCount = 0
    /// Evicted while still entering: each closes when its entrance ends (`shown`).
    private var flagged: [PopupID] = []

    init(popups: Int) {
        present = Array(repeating: false, count: popups)
        leaving = present
    }

    var count: Int { order.count }
    func contains(_ p: PopupID) -> Bool { present[Int(p.index)] }
    func isLeaving(_ p: PopupID) -> Bool { leaving[Int(p.index)] }
    /// On screen and not leaving, oldest first.
    var staying: [PopupID] { order.filter { !leaving[Int($0.index)] } }

    /// Room for a new instance (`Strategy.instanceAdded`).
    mutating func addInstance() {
        present.append(false)
        leaving.append(false)
    }

    mutating func add(_ p: PopupID) {
        order.append(p)
        present[Int(p.index)] = true
    }

    /// `p` starts leaving (its hide was decided, or it is dismissing): no longer flagged.
    mutating func markLeaving(_ p: PopupID) {
        let i = Int(p.index)
        if !flagged.isEmpty { flagged.removeAll { $0 == p } }
        guard present[i], !leaving[i] else { return }
        leaving[i] = true
        leavingCount += 1
    }

    /// `p` is gone: its slot is free.
    mutating func gone(_ p: PopupID) {
        let i = Int(p.index)
        // Once at most; `removeAll` beats `remove(at:)`'s memmove on a screen of a few.
        order.removeAll { $0 == p }
        if !flagged.isEmpty { flagged.removeAll { $0 == p } }
        present[i] = false
        if leaving[i] { leavingCount -= 1 }
        leaving[i] = false
    }

    /// `p`'s entrance ended: whether it was evicted meanwhile (the caller closes it now).
    mutating func entranceEnded(_ p: PopupID) -> Bool {
        guard let at = flagged.firstIndex(of: p) else { return false }
        flagged.remove(at: at)
        return true
    }

    /// The hard cap: the oldest popup not leaving goes at once, without its exit (`hide …
    /// evicted`). Returns whether one was cut (with every popup leaving, none is).
    mutating func cutOldest(_ decisions: inout Decisions) -> Bool {
        guard let victim = order.first(where: { !leaving[Int($0.index)] }) else { return false }
        order.removeAll { $0 == victim }
        present[Int(victim.index)] = false
        flagged.removeAll { $0 == victim }
        decisions.hide(victim, .evicted, ms: 0)
        return true
    }

    /// Eviction: the oldest popup with a display time (else the oldest) is to close now, and is
    /// returned; one still entering (or shown in this very reply) is flagged instead. Nothing
    /// while a popup is leaving or flagged.
    mutating func evictOldest(_ world: World) -> PopupID? {
        guard leavingCount == 0, flagged.isEmpty, let oldest = order.first else { return nil }
        let victim = order.first { world.traits($0).duration != nil } ?? oldest
        guard world.phase(victim) == .shown else {
            flagged.append(victim)
            return nil
        }
        return victim
    }
}
