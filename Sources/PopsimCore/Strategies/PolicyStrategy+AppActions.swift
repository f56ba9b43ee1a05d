/// `policy`'s answers to the app's actions: `remove`, `clear`, and `pauseTimers: resume`.
extension PolicyStrategy {
    mutating func remove(_ p: PopupID, _ decisions: inout Decisions) {
        for entry in queue.removeAll(p) {
            keys.remove(entry.popup)
            decisions.drop(entry.popup, .removed)
        }
        if screen.contains(p) && !screen.isLeaving(p) { close(p, .removed, &decisions) }
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
        for p in screen.order where target.includes(p) && world.isVisibleAndStaying(p) {
            if timers.pause(p, at: world.now, floor: 1) != nil { decisions.stopTimer(p) }
        }
    }

    mutating func resume(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in screen.order where target.includes(p) && world.isVisibleAndStaying(p) {
            if let left = timers.resume(p, at: world.now) { decisions.restartTimer(p, ms: left) }
        }
    }
}
