/// How the engine carries out the script's actions (design.md §2 `events`).
extension Engine {
    mutating func perform(_ action: Action) throws(RunError) {
        switch action {
        case .enqueue(let p):
            try enqueue(p)
        case .enqueueMany(let popups):
            for p in popups { try enqueue(p) }
        case .dismiss(let p):
            try press(countsRequests ? pressTarget(p) : p, button: "close")
        case .press(let p, let button):
            try press(countsRequests ? pressTarget(p) : p, button: button)
        case .set(let changes):
            for (variable, value) in changes { world.state[variable.index] = value }
            stateChanged()
            _ = try tell(.stateChanged)
        case .suspend:
            log(.suspend, subject: -1)
            _ = try tell(.suspend)
        case .resume:
            log(.resume, subject: -1)
            _ = try tell(.resume)
        case .trigger:
            _ = try tell(.trigger)
        case .remove(let p):
            _ = try tell(.remove(p))
        case .clear:
            _ = try tell(.clear)
        case .clearQueue:
            _ = try tell(.clearQueue)
        case .clearScreen:
            _ = try tell(.clearScreen)
        case .clearUpTo(let priority):
            _ = try tell(.clearUpTo(priority))
        case .pauseTimers(let target):
            _ = try tell(.pauseTimers(target))
        case .resumeTimers(let target):
            _ = try tell(.resumeTimers(target))
        case .navigate(let move, let then):
            try navigate(move, then: then)
        }
    }

    /// Script events are not counted as steps (a storm of a million is legitimate); the `then`
    /// actions that run them are.
    mutating func enqueue(_ request: PopupID) throws(RunError) {
        let p = countsRequests ? instance(for: request) : request
        everEnqueued[index(p)] = true
        log(.enqueue, p)
        _ = try tell(.enqueued(p))
    }

    /// The user presses `button` on `p`: only a fully shown popup can be answered. With a
    /// strategy whose user hides wait out `minMs`, the hide comes when the minimum is over (a
    /// second press meanwhile does nothing).
    mutating func press(_ p: PopupID, button: String) throws(RunError) {
        guard world.phase(p) == .shown else {
            log(.warning, p, everEnqueued[index(p)] ? .notShown : .notEnqueued)
            return
        }
        guard waitingPress[index(p)] == nil else { return }
        pressed[index(p)] = button
        if strategy.ignoresUserDismissal(p, in: world) {
            // Unheard: nothing hides; the button's actions run below.
        } else if traits.userHidesWaitMinimum, let minimum = world.popup(p).minMs, world.now - showBegan[index(p)] < minimum {
            // The hide waits out the minimum since the show; the button's actions do not.
            waitingPress[index(p)] = button
            schedule(after: showBegan[index(p)] + minimum - world.now, .timer, .userHide(p, generation[index(p)]))
        } else {
            try popupHides(p, .user, button: button == "close" ? nil : button)
        }
        if traits.buttonActions == .atResponse {
            try runActions(of: p)
        }
    }

    /// The popup dismisses itself (the user, or its duration): the scheduler only hears of it.
    /// `button`: the pressed button when it is not `close` (the line names it).
    mutating func popupHides(_ p: PopupID, _ reason: Reason, button: String? = nil) throws(RunError) {
        startHide(p, reason, ms: world.traits(p).hideMs, button: button)
        _ = try tell(.dismissing(p, reason))
    }

    /// Queues the pressed button's `then` actions; `runQueuedActions` carries them out.
    mutating func runActions(of p: PopupID) throws(RunError) {
        guard let button = pressed[index(p)] else { return }
        pressed[index(p)] = nil
        queue(world.popup(p).actions(for: button))
    }

    /// Actions set off by a press or a transition: carried out after the step that set them off,
    /// in order, each completely before the next, and depth first (an action's own `then` runs
    /// before the next action of its list) — with a stack of lists, not recursion, so a chain
    /// that never ends is stopped by the step limit, not by the machine's stack.
    mutating func queue(_ actions: [Action]) {
        if !actions.isEmpty { actionFrames.append(ActionFrame(actions: actions, next: 0)) }
    }

    mutating func runQueuedActions() throws(RunError) {
        while let top = actionFrames.indices.last {
            let frame = actionFrames[top]
            let action = frame.actions[frame.next]
            if frame.next + 1 == frame.actions.count { actionFrames.removeLast() } else { actionFrames[top].next += 1 }
            try countStep()
            try perform(action)
        }
    }

    mutating func navigate(_ move: Navigation, then: [Action]) throws(RunError) {
        switch navigation.begin(move) {
        case .unchanged:
            return
        case .notOnStack:
            if case .popTo(let screen) = move {
                log(.warning, subject: subject(forScreen: screen), .notOnStack)
            }
            return
        case .started:
            break
        }
        navigationThen.append(then)
        schedule(after: navMs, .transition, .navigationEnd(navigationThen.count - 1))
    }

    /// The timeline subject for a screen name, interned after the popup names.
    mutating func subject(forScreen screen: String) -> Int32 {
        if countsRequests { return deferredScreen(screen) }
        if let i = timeline.subjects.lastIndex(of: screen), i >= world.scenario.popups.count {
            return Int32(i)
        }
        timeline.subjects.append(screen)
        return Int32(timeline.subjects.count - 1)
    }
}
