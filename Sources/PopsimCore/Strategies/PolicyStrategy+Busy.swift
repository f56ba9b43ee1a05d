/// `policy`'s busy rule (`busy`, `busyFor`): which shown popup an arrival acts on, and a
/// preempted popup's way back into the line (`returnTo`, `timerOnReturn`).
extension PolicyStrategy {
    /// The shown popup the busy rule acts on, if the rule is for `p` (every arrival, a `level: high`
    /// one, one that outranks, or one whose `arrival` is `replace`): the oldest staying one (for
    /// `higher`, the lowest priority, which `p` must outrank).
    func victim(for p: PopupID, _ world: World) -> PopupID? {
        let staying = screen.staying
        switch rules.busyFor {
        case .all: return staying.first
        case .high: return world.traits(p).level == .high ? staying.first : nil
        case .arrival: return world.popup(p).arrival == .replace ? staying.first : nil
        case .higher:
            guard let lowest = staying.min(by: { priority($0, world) < priority($1, world) }) else { return nil }
            return priority(p, world) > priority(lowest, world) ? lowest : nil
        }
    }

    /// The victim goes back in line: waiting afresh (`ttlMs`), a return rather than a new show
    /// (caps), with the time its timer had left when it resumes.
    mutating func preempt(_ victim: PopupID, _ world: World, _ decisions: inout Decisions) {
        let i = Int(victim.index)
        var entry = taken[i] ?? PolicyQueue.Entry(popup: victim, sequence: -1, priority: priority(victim, world), since: world.now)
        entry.since = world.now
        entry.returning = true
        entry.left = nil
        if rules.timerOnReturn == .resume {
            entry.left = timers.timeLeft(victim, at: world.now, floor: 1) ?? timers.paused(victim)
        }
        close(victim, .preempted, &decisions)
        decisions.requeue(victim, .preempted)
        queue.putBack(entry, first: rules.returnTo == .first)
        keys.add(victim)
    }

    func priority(_ p: PopupID, _ world: World) -> Int { world.traits(p).priority ?? Self.normalPriority }
}
