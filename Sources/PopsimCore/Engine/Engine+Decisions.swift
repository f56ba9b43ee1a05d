/// How the engine tells the strategy, checks its decisions and moves popups on screen.
extension Engine {
    /// Tells the strategy one happening and applies its decisions; returns whether it decided anything.
    @discardableResult
    mutating func tell(_ happening: Happening) throws(RunError) -> Bool {
        decisions.removeAll()
        strategy.handle(happening, in: world, decisions: &decisions)
        let decided = !decisions.isEmpty
        if decided {
            // By index, not over a copy of the list (retained and released at each decision):
            // `apply` never tells the strategy, so nothing changes the list while it is read.
            var i = 0
            while i < decisions.list.count {
                let decision = decisions.list[i]
                i += 1
                try apply(decision)
            }
        }
        if strategy.failed, let failure = strategy.failure { throw failure }
        return decided
    }

    mutating func apply(_ decision: Decision) throws(RunError) {
        if finishing {
            switch decision {
            case .warn, .drop: break
            default: throw broke("decided \(decision) after the run finished (only warn and drop are allowed)")
            }
        }
        switch decision {
        case .show(let p, let ms, let reason):
            guard everEnqueued[index(p)] else { throw broke("showed '\(name(p))', which was never enqueued") }
            guard world.phase(p) == .hidden else { throw broke("showed '\(name(p))', which is already on screen") }
            startShow(p, ms: ms ?? world.traits(p).showMs, reason: reason)
        case .hide(let p, let reason, let ms):
            let phase = world.phase(p)
            guard phase == .presenting || phase == .shown else {
                throw broke("hid '\(name(p))' (\(reason.rawValue)), which is not on screen")
            }
            startHide(p, reason, ms: ms ?? world.traits(p).hideMs)
        case .restartTimer(let p, let ms):
            guard world.isVisibleAndStaying(p) else { throw broke("restarted the timer of '\(name(p))', which is not on screen") }
            guard (ms ?? 0) >= 0 else { throw broke("restarted a timer with a negative delay") }
            startDisplayTimer(p, ms: ms)
        case .endExit(let p, let ms):
            guard world.phase(p) == .hiding else { throw broke("ended the exit of '\(name(p))', which is not leaving") }
            guard ms >= 0 else { throw broke("ended an exit after a negative delay \(ms)") }
            // The scheduled end of the animation is now stale (its generation moves on).
            generation[index(p)] &+= 1
            if ms == 0 { becomeHidden(p, logLine: true) }
            schedule(after: ms, .transition, .transitionEnd(p, generation[index(p)]))
        case .stopTimer(let p):
            timerGeneration[index(p)] &+= 1
        case .drop(let p, let reason):
            log(.drop, p, reason)
        case .requeue(let p, let reason):
            log(.requeue, p, reason)
        case .warn(let p, let reason):
            log(.warning, subject: p.map { $0.index } ?? -1, reason)
        case .startTimer(let after, let token):
            guard after >= 0 else { throw broke("started a timer with a negative delay \(after)") }
            schedule(after: after, .timer, .strategyTimer(token))
        }
    }

    func broke(_ what: String) -> RunError {
        .strategyBroke(strategy: traits.name, time: world.now, decision: what)
    }

    func name(_ p: PopupID) -> String { world.scenario.name(of: p) }

    /// Starts a present. A 0 ms present takes effect at once (the popup is shown); the strategy
    /// hears `shown` as a transition completion at the same instant either way.
    mutating func startShow(_ p: PopupID, ms: Int, reason: Reason? = nil) {
        if visibleCount >= slots && occupied() >= slots {
            log(.warning, p, .overlap)
            overlapAllowed = true
        }
        log(.show, p, reason)
        if !shows.isEmpty { shows[Int(world.base(p).index)] &+= 1 }
        visibleCount += 1
        generation[index(p)] &+= 1
        showBegan[index(p)] = world.now
        waitingPress[index(p)] = nil
        if traits.timerAnchor == .show { startDisplayTimer(p) }
        if ms == 0 {
            becomeShown(p, logLine: false)
        } else {
            world.phases[index(p)] = .presenting
        }
        schedule(after: ms, .transition, .transitionEnd(p, generation[index(p)]))
    }

    /// Starts a dismissal. A 0 ms hide takes the popup off screen at once, so a strategy may show
    /// the next popup in the same breath without an overlap; `gone` follows at the same instant.
    mutating func startHide(_ p: PopupID, _ reason: Reason, ms: Int, button: String? = nil) {
        log(.hide, p, reason)
        if let button { timeline.entries[timeline.entries.count - 1].button = timeline.buttonIndex(button) }
        generation[index(p)] &+= 1
        timerGeneration[index(p)] &+= 1
        if ms == 0 {
            becomeHidden(p, logLine: false)
        } else {
            world.phases[index(p)] = .hiding
            hidingCount += 1
        }
        schedule(after: ms, .transition, .transitionEnd(p, generation[index(p)]))
    }

    /// A transition's end: a real completion, or the notice of a 0 ms one that already took effect.
    mutating func completeTransition(_ p: PopupID) throws(RunError) {
        switch world.phase(p) {
        case .presenting:
            becomeShown(p, logLine: true)
            try tell(.shown(p))
        case .shown:
            try tell(.shown(p))
        case .hiding:
            becomeHidden(p, logLine: true)
            try goneNotice(p)
        case .hidden:
            try goneNotice(p)
        }
    }

    mutating func goneNotice(_ p: PopupID) throws(RunError) {
        awaitingGone[index(p)] = false
        if countsRequests { noteMaybeFree(p) }
        try tell(.gone(p))
        if traits.buttonActions == .atGone { try runActions(of: p) }
    }

    mutating func becomeShown(_ p: PopupID, logLine: Bool) {
        world.phases[index(p)] = .shown
        if logLine { log(.shown, p) }
        if traits.timerAnchor == .shown { startDisplayTimer(p) }
        if shows.isEmpty {
            if let after = world.traits(p).respondAfter { schedule(after: after, .timer, .response(p, generation[index(p)], -1)) }
        } else {
            scheduleAnswer(p)
        }
    }

    /// Schedules the answer to the show of `p` under way, the show of its file's popup it is
    /// (`Popup.answer(toShow:)`).
    @inline(never)
    mutating func scheduleAnswer(_ p: PopupID) {
        let show = shows[Int(world.base(p).index)] &- 1
        guard show >= 0, let answer = world.answer(p, toShow: Int(show)) else { return }
        schedule(after: answer.after, .timer, .response(p, generation[index(p)], show))
    }

    /// (Re)starts the popup's display timer, cancelling any running one: `ms`, else its duration.
    mutating func startDisplayTimer(_ p: PopupID, ms: Int? = nil) {
        timerGeneration[index(p)] &+= 1
        guard let duration = ms ?? world.traits(p).duration else { return }
        schedule(after: duration, .timer, .durationEnd(p, timerGeneration[index(p)]))
    }

    /// Popups holding a slot: every one on screen, or only those not hiding when the strategy's
    /// library presents the next popup during the previous one's dismissal.
    func occupied() -> Int {
        traits.crossFades ? visibleCount - hidingCount : visibleCount
    }

    mutating func becomeHidden(_ p: PopupID, logLine: Bool) {
        if world.phases[index(p)] == .hiding { hidingCount -= 1 }
        world.phases[index(p)] = .hidden
        awaitingGone[index(p)] = true
        visibleCount -= 1
        if visibleCount <= slots { overlapAllowed = false }
        if logLine { log(.gone, p) }
    }

    mutating func log(_ event: TimelineEvent, _ p: PopupID, _ reason: Reason? = nil) {
        log(event, subject: p.index, reason)
    }

    @inline(__always)
    mutating func log(_ event: TimelineEvent, subject: Int32, _ reason: Reason? = nil) {
        timeline.entries.append(Timeline.Entry(t: world.now, event: event, subject: subject, reason: reason))
        lastLogged = world.now
        if countsRequests { countLastRequest() }
    }

    /// The ledger's effect of the last line on its popup's open requests (`openRequests`); out
    /// of line, so that `log` stays small where no strategy makes instances.
    @inline(never)
    mutating func countLastRequest() {
        guard let entry = timeline.entries.last, entry.subject >= 0, Int(entry.subject) < openRequests.count else { return }
        let i = Int(entry.subject)
        switch entry.ledger {
        case .opens: openRequests[i] += 1
        case .settles:
            guard openRequests[i] > 0 else { break }
            openRequests[i] -= 1
            if openRequests[i] == 0 { noteMaybeFree(PopupID(i)) }
        case .none: break
        }
    }

    /// The engine's invariants (convention 15), checked after every step when limits ask for it.
    @inline(__always)
    func checkInvariantsIfAsked() throws(RunError) {
        if checksInvariants { try checkInvariants() }
    }

    /// The engine's own invariants (tests ask for them through `RunLimits.checkInvariants`).
    @inline(never)
    func checkInvariants() throws(RunError) {
        let visible = world.phases.reduce(0) { $0 + ($1 == .hidden ? 0 : 1) }
        if world.phases.filter({ $0 == .hiding }).count != hidingCount {
            throw .invariant(strategy: traits.name, time: world.now, message: "hiding count \(hidingCount) disagrees with the phases")
        }
        if visible != visibleCount {
            throw .invariant(strategy: traits.name, time: world.now, message: "visible count \(visibleCount) but \(visible) popups on screen")
        }
        if occupied() > slots && !overlapAllowed {
            throw .invariant(strategy: traits.name, time: world.now, message: "\(visible) popups on screen without an overlap warning")
        }
        if let key = heap.minKey, key.time < world.now {
            throw .invariant(strategy: traits.name, time: world.now, message: "a happening is scheduled in the past (\(key.time) ms)")
        }
        let entries = timeline.entries
        if entries.count >= 2, entries[entries.count - 1].t < entries[entries.count - 2].t {
            throw .invariant(strategy: traits.name, time: world.now, message: "the timeline went back in time")
        }
    }
}
