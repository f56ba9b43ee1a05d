/// The discrete-event loop of design.md §4, generic over the strategy so that the hot path has
/// no existential call per happening.
///
/// Contract: happenings are processed in `HappeningKey` order; after the last happening of an
/// instant the idle pass runs and repeats while it changes something. Happenings at exactly
/// `until` are processed (with their idle pass); nothing later is. API in SimPy's shape:
/// `peek`, `step`, `run()`.
struct Engine<S: Strategy> {
    var world: World
    var strategy: S
    /// The strategy's traits, read once at the start of the run.
    var traits: StrategyTraits
    var limits: RunLimits
    /// The script, held directly: reading an event through `world.scenario` copied the whole
    /// `Scenario` value per event (callgrind: a `memcpy` per script event).
    var events: [ScenarioEvent]
    /// `limits.checkInvariants`, read once: the check runs after every script event.
    var checksInvariants: Bool
    var navMs: Int
    /// Popups that may be on screen at once without an overlap warning (option `slots`, else 1).
    var slots: Int
    var finishing = false

    var heap = Heap<HappeningKey, Scheduled>()
    var nextEvent = 0
    var sequence = 0
    var timeline: Timeline
    var decisions = Decisions()
    /// Bumped to cancel a popup's pending transition completion and its own timers.
    var generation: [UInt32]
    /// Bumped to cancel a popup's display timer (any show, any hide, a restart).
    var timerGeneration: [UInt32]
    var pressed: [String?]
    /// When each popup's current show began, and a user's dismissal waiting out its minimum.
    var showBegan: [Int]
    var waitingPress: [String?]
    var everEnqueued: [Bool]
    /// Shows so far of each file's popup (its instances' included), when some popup answers show
    /// by show (`Popup.respondByShow`); empty otherwise.
    var shows: [Int32] = []
    /// Off screen, its strategy not yet told `gone` (a 0 ms hide tells it later in the instant):
    /// not yet free for another request (`instance(for:)`).
    var awaitingGone: [Bool]
    /// Under `InstancePolicy.perRequest` (`countsRequests`): each popup's open requests by the
    /// ledger, so that a request goes to a popup neither on screen nor waiting in O(1).
    var countsRequests = false
    var openRequests: [Int32]
    /// Per file's popup (by index, grown as instances are made), its instances that may have
    /// become free, lowest index first: pushed when one is told `gone` or its last open request
    /// settles, popped lazily when found busy. A burst of requests of one popup then finds a
    /// free instance in O(log n), not by scanning them all.
    var mayBeFree: [Heap<Int32, Void>] = []
    /// Under `perRequest`: the screens named this run, in order (`deferredScreen`).
    var runScreens: [String] = []
    var visibleCount = 0
    /// Popups on screen that are leaving (so `occupied()` needs no scan of every phase).
    var hidingCount = 0
    var overlapAllowed = false
    var stepsThisInstant = 0
    /// The steps this instant may take: the limit, plus `RunLimits.stepsPerScriptEvent` for each
    /// script event run in it, and for each popup of an `enqueue` of a list (the happenings a
    /// burst causes grow with the burst).
    var instantBudget = 0
    /// The schedule's sequence number when this instant began: a happening scheduled before it
    /// (a burst's million animation ends, due together later) is no sign of a runaway and does
    /// not count against the instant's limit, only against the run's.
    var sequenceAtInstant = 0
    var stepsInAll = 0
    var lastLogged = 0
    var navigation: NavigationStack
    /// The `then` lists of navigation transitions in flight, by index.
    var navigationThen: [[Action]] = []
    /// Lists of `then` actions still to carry out, innermost last (`runQueuedActions`).
    var actionFrames: [ActionFrame] = []

    struct ActionFrame {
        var actions: [Action]
        var next: Int
    }
    var stateHistory: [StateSnapshot] = []

    /// A pending happening of the engine's own (scenario events are read from the script).
    /// Plain data, so the heap moves it without reference counting.
    enum Scheduled {
        case transitionEnd(PopupID, UInt32)
        case durationEnd(PopupID, UInt32)
        /// The user's answer to a show: the popup, its generation, and which of its file's
        /// popup's shows it is (-1: every show has the one answer, `respond`).
        case response(PopupID, UInt32, Int32)
        /// A user's dismissal waiting out the popup's `minMs` (`StrategyTraits.userHidesWaitMinimum`).
        case userHide(PopupID, UInt32)
        /// Index into `navigationThen`: the actions to run when this transition completes.
        case navigationEnd(Int)
        case strategyTimer(Int)
    }

    init(scenario: Scenario, options: ResolvedOptions, limits: RunLimits) {
        self.init(scenario: scenario, options: options, limits: limits, strategy: S.init(world:))
    }

    /// With a strategy made by the caller from the run's world (a plug-in with its channel).
    init(scenario: Scenario, options: ResolvedOptions, limits: RunLimits, strategy make: (World) -> S) {
        world = World(scenario: scenario, options: options)
        strategy = make(world)
        traits = strategy.traits
        self.limits = limits
        events = scenario.events
        checksInvariants = limits.checkInvariants
        navMs = options[.navMs] ?? 0
        slots = options[.slots] ?? 1
        let count = scenario.popups.count
        timeline = Timeline(subjects: scenario.popups.map(\.name))
        // About three lines per event in realistic scripts; growing past it is only slower.
        LargeBuffer.reserve(&timeline.entries, min(scenario.events.count * 3 + 64, 1 << 26))
        generation = Array(repeating: 0, count: count)
        timerGeneration = generation
        pressed = Array(repeating: nil, count: count)
        showBegan = Array(repeating: 0, count: count)
        waitingPress = pressed
        everEnqueued = Array(repeating: false, count: count)
        awaitingGone = everEnqueued
        openRequests = Array(repeating: 0, count: count)
        if world.traits.contains(where: \.answersByShow) { shows = Array(repeating: 0, count: count) }
        countsRequests = traits.instances == .perRequest
        navigation = NavigationStack(scenario: scenario)
        if limits.recordStates { stateHistory.append(StateSnapshot(position: 0, values: world.state)) }
    }

    /// Makes it the engine of another run of a scenario of the same popups and state (another
    /// user of a replay), as `init` would, keeping its buffers: arrays emptied or refilled in place, the
    /// strategy reset (`Strategy.reset`). The run before must be over and its result let go.
    mutating func reset(scenario: Scenario, options: ResolvedOptions, limits: RunLimits) {
        world.reset(scenario: scenario, options: options)
        strategy.reset(world: world)
        traits = strategy.traits
        self.limits = limits
        events = scenario.events
        checksInvariants = limits.checkInvariants
        navMs = options[.navMs] ?? 0
        slots = options[.slots] ?? 1
        finishing = false
        heap.removeAll()
        nextEvent = 0
        sequence = 0
        timeline.reset(subjects: scenario.popups)
        LargeBuffer.reserve(&timeline.entries, min(scenario.events.count * 3 + 64, 1 << 26))
        decisions.removeAll()
        let count = scenario.popups.count
        generation.refill(0, count: count)
        timerGeneration.refill(0, count: count)
        pressed.refill(nil, count: count)
        showBegan.refill(0, count: count)
        waitingPress.refill(nil, count: count)
        everEnqueued.refill(false, count: count)
        awaitingGone.refill(false, count: count)
        openRequests.refill(0, count: count)
        // Read from the traits: a closure over the popups copied each one (its strings retained).
        if world.traits.contains(where: \.answersByShow) { shows.refill(0, count: count) } else { shows.empty() }
        mayBeFree.empty()
        runScreens.empty()
        countsRequests = traits.instances == .perRequest
        visibleCount = 0
        hidingCount = 0
        overlapAllowed = false
        stepsThisInstant = 0
        instantBudget = 0
        sequenceAtInstant = 0
        stepsInAll = 0
        lastLogged = 0
        navigation.reset(scenario: scenario)
        navigationThen.empty()
        actionFrames.empty()
        stateHistory.empty()
        if limits.recordStates { stateHistory.append(StateSnapshot(position: 0, values: world.state)) }
    }

    /// After a run: lets go of its scenario's popups and script (the result has its own copy), so
    /// that a caller making the next user's scenario in the same storage changes it in place
    /// instead of copying it (a replay's users). Only `reset` may follow.
    mutating func letGo() {
        world.scenario.popups = []
        world.scenario.events = []
        events = []
    }

    /// The key of the next happening, if any. Inlined: called on `self` from a mutating method,
    /// an outlined call copied the whole engine (600–900 bytes) once per instant.
    @inline(__always)
    func peek() -> HappeningKey? {
        let eventKey = nextEvent < events.count
            ? HappeningKey(time: events[nextEvent].at, order: .scenarioEvent, sequence: nextEvent)
            : nil
        switch (heap.minKey, eventKey) {
        case (let h?, let e?): return min(h, e)
        case (let h?, nil): return h
        case (nil, let e): return e
        }
    }

    mutating func run() throws(RunError) -> RunResult {
        let until = world.scenario.until
        var cut: Int?
        while let key = peek() {
            if let until, key.time > until {
                cut = until
                break
            }
            world.now = key.time
            stepsThisInstant = 0
            instantBudget = limits.maxStepsPerInstant
            sequenceAtInstant = sequence
            try runInstant()
        }
        // The run's end: `until` when it cut the run short, else its last happening (logged or
        // not: a `set` or a timer that changes nothing on screen still happened). End-of-run
        // lines carry it, as the summary does.
        finishing = true
        world.now = max(lastLogged, cut ?? world.now)
        let end = world.now
        try tell(.finished)
        let pending = strategy.pending(in: world)
        if countsRequests { timeline.settle(screens: runScreens, bases: world.bases) }
        return RunResult(scenario: world.scenario, strategy: traits.name, options: world.options,
                         timeline: timeline, pending: pending, heldBack: pending.map { strategy.heldBack($0, in: world) }, end: end,
                         onScreen: world.phases.indices.filter { world.phases[$0] != .hidden }.map { PopupID($0) },
                         eventsNotRun: events.count - nextEvent, stateHistory: stateHistory,
                         crossFades: traits.crossFades)
    }

    /// One instant as a run loop lives it (docs/engine.md, "Time and order"): the completions and
    /// timers due now fire together in one pass, then the idle pass; then each script event is a
    /// pass of its own (a source callback), followed by the idle pass again.
    mutating func runInstant() throws(RunError) {
        if try drainNow() {
            try idlePass()
        }
        while nextEvent < events.count, events[nextEvent].at == world.now {
            let action = events[nextEvent].action
            nextEvent += 1
            // Each request raises the budget: a list of N popups enqueued at once is N
            // requests, as N events are (one raise for the list made a burst "not settle").
            let requests = if case .enqueueMany(let list) = action { max(1, list.count) } else { 1 }
            instantBudget = instantBudget.plus(RunLimits.stepsPerScriptEvent.multipliedReportingOverflow(by: requests).overflow
                                               ? Int.max : RunLimits.stepsPerScriptEvent * requests)
            try perform(action)
            try checkLines()
            if !actionFrames.isEmpty { try runQueuedActions() }
            try checkInvariantsIfAsked()
            try drainNow()
            try idlePass(countingFirst: false)
            if nextEvent & 0xFFFF == 0 { reportProgress() }
        }
    }

    /// Tells the caller how far the script has come (rarely: kept out of the hot loop).
    @inline(never)
    func reportProgress() {
        limits.progress?(nextEvent, events.count)
    }

    /// Processes every happening of the engine's own due at this instant; returns whether any ran.
    @discardableResult @inline(__always)
    mutating func drainNow() throws(RunError) -> Bool {
        var ran = false
        while let key = heap.minKey, key.time == world.now {
            try step()
            ran = true
        }
        return ran
    }

    /// Processes the engine's next own happening. Script events never come here: `runInstant`
    /// runs them, and at any instant the heap's happenings (transitions, timers) order first.
    mutating func step() throws(RunError) {
        if let (key, item) = heap.pop() {
            try countStep(thisInstant: key.sequence > sequenceAtInstant)
            try process(item)
        }
        if !actionFrames.isEmpty { try runQueuedActions() }
        try checkInvariantsIfAsked()
    }

    /// Tells the strategy `idle` and runs what that scheduled for now, repeating while anything
    /// changed. The first round after a script event is part of that event, so not a step
    /// (a burst of a million enqueues at one instant is legitimate).
    @inline(__always)
    mutating func idlePass(countingFirst: Bool = true) throws(RunError) {
        var counting = countingFirst
        while true {
            if counting { try countStep() }
            counting = true
            let changed = strategy.hearsIdle ? try tell(.idle) : false
            let processed = try drainNow()
            if !changed && !processed { return }
        }
    }

    /// Stops a run whose timeline passed `maxLines` (checked at every step and script event, so
    /// it can pass the limit by what one step writes).
    @inline(__always)
    func checkLines() throws(RunError) {
        if timeline.entries.count > limits.maxLines {
            throw .tooManyLines(file: world.scenario.file, time: world.now, limit: limits.maxLines)
        }
    }

    mutating func countStep(thisInstant: Bool = true) throws(RunError) {
        try checkLines()
        if thisInstant { stepsThisInstant += 1 }
        stepsInAll += 1
        if stepsThisInstant > instantBudget {
            throw .runaway(file: world.scenario.file, time: world.now, limit: limits.maxStepsPerInstant, perInstant: true)
        }
        if stepsInAll > limits.maxSteps {
            throw .runaway(file: world.scenario.file, time: world.now, limit: limits.maxSteps, perInstant: false)
        }
    }

    mutating func schedule(after delay: Int, _ order: HappeningClass, _ item: Scheduled) {
        sequence += 1
        heap.push(HappeningKey(time: world.now.plus(delay), order: order, sequence: sequence), item)
    }

    mutating func process(_ item: Scheduled) throws(RunError) {
        switch item {
        case .transitionEnd(let p, let g):
            guard generation[index(p)] == g else { return }
            try completeTransition(p)
        case .durationEnd(let p, let g):
            let phase = world.phase(p)
            guard timerGeneration[index(p)] == g, phase == .shown || phase == .presenting else { return }
            try popupHides(p, .duration)
        case .response(let p, let g, let show):
            guard generation[index(p)] == g, world.phase(p) == .shown,
                  let response = show >= 0 ? world.answer(p, toShow: Int(show)) : world.popup(p).respond else { return }
            try press(p, button: response.button)
        case .navigationEnd(let index):
            let then = navigationThen[index]
            navigationThen[index] = []
            let screen = navigation.complete()
            log(.nav, subject: subject(forScreen: screen))
            if let variable = navigation.screenVariable {
                world.state[variable.index] = .string(screen)
            }
            stateChanged()
            _ = try tell(.stateChanged)
            queue(then)
        case .userHide(let p, let g):
            guard generation[index(p)] == g, world.phase(p) == .shown, let button = waitingPress[index(p)] else { return }
            waitingPress[index(p)] = nil
            try popupHides(p, .user, button: button == "close" ? nil : button)
        case .strategyTimer(let token):
            _ = try tell(.timer(token))
        }
    }

    func index(_ p: PopupID) -> Int { Int(p.index) }

    /// Records the new state, when the caller asked for the history.
    mutating func stateChanged() {
        world.stateVersion &+= 1
        guard limits.recordStates else { return }
        stateHistory.append(StateSnapshot(position: timeline.entries.count, values: world.state))
    }
}
