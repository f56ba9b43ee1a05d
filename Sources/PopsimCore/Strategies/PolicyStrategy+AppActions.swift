/// `policy`'s answers to the app's actions: `remove`, `clear`, and `pauseTimers: resume`.
extension PolicyStrategy {
    /// `remove p`: p's entries leave the line, in taking order, and p closes; under
    /// `instances: per-request` so do p's instances (those on screen oldest first).
    mutating func remove(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        let some = !world.instances(of: p).isEmpty
        for entry in some ? queue.removeAll(where: { world.base($0) == p }) : queue.removeAll(p) {
            keys.remove(entry.popup)
            decisions.drop(entry.popup, .removed)
        }
        for q in some ? screen.order.filter({ world.base($0) == p }) : [p] where screen.contains(q) && !screen.isLeaving(q) {
            close(q, .removed, &decisions)
        }
    }

    mutating func clear(_ decisions: inout Decisions) {
        if rules.clear == .all || rules.clear == .queue {
            for entry in queue.removeAll() {
                keys.remove(entry.popup)
                decisions.drop(entry.popup, .cleared)
            }
        }
        if rules.clear == .all || rules.clear == .screen {
            for p in screen.staying { close(p, .cleared, &decisions) }
        }
    }

    /// `pauseTimers: resume`: the timer stops and keeps what it had left (sonner).
    mutating func pause(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in screen.order where target.includes(p, in: world) && world.isVisibleAndStaying(p) {
            if timers.pause(p, at: world.now, floor: 1) != nil { decisions.stopTimer(p) }
        }
    }

    mutating func resume(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in screen.order where target.includes(p, in: world) && world.isVisibleAndStaying(p) {
            if let left = timers.resume(p, at: world.now) { decisions.restartTimer(p, ms: left) }
        }
    }
}
