/// `policy`: a scheduler described by its options, not modelled on one library — for a team's
/// own popup manager, or rules being designed. Each knob composes a mechanism a real library has
/// (`PolicyRules`; docs/policy.md names the library behind every value).
///
/// - Source: the libraries behind each knob (semantics/seeds.md, peers.md); no single library.
///   `jc-fifo` and `notistack` are policies too: `Examples/policies/` holds theirs, and
///   `PolicyEquivalenceTests` runs every bundled scenario under both with identical timelines.
/// - Arrival: `dedupe` first (`drop … duplicate`). With every slot taken (a leaving popup holds
///   its slot until `gone`, unless `handoff: cross-fade`) the `busy` rule applies to the popups
///   `busyFor` names: `wait` joins the line; `replace` hides a shown popup for good (`hide …
///   replaced`); `preempt` hides it (`hide … preempted`, `requeue … preempted`) and puts it back
///   by `return`, its timer by `returnTimer`; `drop` refuses the newcomer (`drop … overflow`).
///   A popup that replaced or preempted goes before everything waiting.
/// - Taking the next (at an arrival, a `gone`, a hide under cross-fade, a state change, `resume`,
///   a pacing timer): the first in `order` that is not on screen; expired (`ttlMs`, `drop …
///   expired`) and capped (`lifetimeCap`/`maxShows`, `dailyCap`: `drop … quota`) popups leave as
///   they come up; a failing `when` waits or is dropped (`failing`) at the head, or is passed over
///   (`conditions: any`). Pacing (`minGapMs`, `cooldownMs`, `rateCount` per `rateWindowMs`) holds
///   the line and retries when it allows.
/// - Slots full and popups waiting: `overflow` `wait`; `evict` closes the oldest snack
///   (persistent ones last), one at a time, flagging one still entering (notistack); `cut` hides
///   the oldest at once (react-hot-toast).
/// - `pauseTimers`/`resumeTimers`, `suspend`/`resume`, `remove`, `clear` as their knobs say.
/// - `instances: per-request`: a popup requested while on screen or waiting is a new instance
///   (`X#2`, docs/engine.md "Instances"), with its popup's dedupe key, cap scopes and show count;
///   `remove X` takes every instance of X.
struct PolicyStrategy: Strategy {
    static let name = "policy"
    static let summary = "your own rules: order, busy rule, slots, overflow, conditions, timers, dedupe, pacing (docs/policy.md)"
    static let options = PolicyRules.options
    static let modelledFields: [PopupField] = [.priority, .when, .level, .arrival, .dedupeKey, .ttlMs, .maxShows]
    static let modelledActions: [ActionKind] = [.remove, .clear, .suspend, .resume, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse
    static let day = 86_400_000

    static func modelled(under options: ResolvedOptions) -> (fields: [PopupField], actions: [ActionKind]) {
        PolicyRules(options).modelled
    }
    static let normalPriority = Popup.normalPriority

    // Internal, not private: the busy rule and the app's actions (PolicyStrategy+Busy.swift,
    // PolicyStrategy+AppActions.swift) act on these.
    let rules: PolicyRules
    var queue: PolicyQueue
    /// On screen, oldest first, leaving ones included until `gone` (and the two ways to make room).
    var screen: ScreenSlots
    /// The queue entry each popup on screen was taken from (to put a preempted one back).
    var taken: [PolicyQueue.Entry?]
    /// How many queued entries have each dedupe key (`dedupeBy`).
    var keys: DedupeCounts
    private var suspended = false
    private var shows: [Int]
    /// `minGapMs`, `cooldownMs`, the rate window and the shows `dailyCap` counts.
    private var pacing: Pacing
    /// The shows each of `caps` counts.
    private var capped: ScopedCapCounter
    private var retryAt: Int?
    /// Each popup's `when` as last judged (-1: not since the state changed), at `judgedAt`: a
    /// waiting popup's condition is evaluated again only when the state it reads has changed (an
    /// 800-operand condition was evaluated at every arrival of another popup; issue 41).
    private var judged: [Int8] = []
    private var judgedAt = -1
    /// Display timers as the policy knows them (until a popup leaves the screen), and what a
    /// returning one resumes with (from its queue entry, until its timer starts).
    var timers: DisplayTimers
    private var resumeWith: [Int?]
    private var holds: TimerHolds?

    init(world: World) {
        rules = PolicyRules(world.options)
        queue = PolicyQueue(rules.order)
        let n = world.scenario.popups.count
        screen = ScreenSlots(popups: n)
        taken = Array(repeating: nil, count: n)
        keys = DedupeCounts(world.scenario.popups, byKey: rules.dedupeBy == .key)
        shows = Array(repeating: 0, count: n)
        pacing = Pacing(windows: [.init(count: rules.rateCount, windowMs: rules.rateWindowMs)], minGapMs: rules.minGapMs,
                        cooldownMs: rules.cooldownMs, keeping: rules.dailyCap > 0 ? Self.day : 0)
        capped = ScopedCapCounter(rules.caps, world.scenario)
        timers = DisplayTimers(popups: n)
        resumeWith = Array(repeating: nil, count: n)
        switch rules.pause {
        case .restart: holds = TimerHolds(.restart, popups: n)
        case .half: holds = TimerHolds(.half, popups: n)
        case .ignore, .resume: holds = nil
        }
    }

    var traits: StrategyTraits {
        StrategyTraits(name: Self.name, buttonActions: rules.buttons == .atGone ? .atGone : .atResponse,
                       timerAnchor: rules.timerAnchor, crossFades: rules.handoff == .crossFade, instances: rules.instances)
    }

    /// `instances: per-request`: room for the new instance, which shares its popup's dedupe key,
    /// scopes and show count (`shows` is kept per file's popup).
    mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World) {
        screen.addInstance()
        taken.append(nil)
        keys.addInstance(of: base)
        capped.addInstance(of: base)
        timers.addInstance()
        resumeWith.append(nil)
        holds?.addInstance()
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p): arrive(p, world, &decisions)
        case .shown(let p): shown(p, world, &decisions)
        case .dismissing(let p, _):
            markLeaving(p)
            if rules.handoff == .crossFade { flow(world, &decisions) }
        case .gone(let p):
            screen.gone(p)
            forget(p)
            pacing.recordGone(at: world.now)
            capped.recordGone(p, at: world.now)
            flow(world, &decisions)
        case .stateChanged where rules.conditions != .ignore: flow(world, &decisions)
        case .timer:
            if let at = retryAt, at <= world.now { retryAt = nil }
            flow(world, &decisions)
        case .suspend where rules.suspend == .honour: suspended = true
        case .resume where rules.suspend == .honour:
            suspended = false
            flow(world, &decisions)
        case .remove(let p) where rules.remove == .honour:
            remove(p, world, &decisions)
            flow(world, &decisions)
        case .clear:
            clear(&decisions)
            flow(world, &decisions)
        case .pauseTimers(let target) where rules.pause == .resume: pause(target, world, &decisions)
        case .resumeTimers(let target) where rules.pause == .resume: resume(target, world, &decisions)
        default: holds?.handle(happening, on: screen.order, world, &decisions)
        }
    }

    func pending(in world: World) -> [PopupID] { queue.elements.map(\.popup) }

    func heldBack(_ popup: PopupID, in world: World) -> HoldReason? {
        if suspended { return .suspended }
        if let reason = pacing.hold(world.now) { return reason }
        if let (reason, _) = capped.held(popup, at: world.now) { return reason }
        return Self.conditionHold(popup, in: world)
    }

    // MARK: Arrival

    private mutating func arrive(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if isDuplicate(p) { return decisions.drop(p, .duplicate) }
        // Suspended, nothing new shows: an arrival that would take the screen waits like any.
        if !suspended, occupying >= rules.slots, rules.busy != .wait, let victim = victim(for: p, world) {
            switch rules.busy {
            case .drop: return decisions.drop(p, .overflow)
            case .replace: close(victim, .replaced, &decisions)
            case .preempt: preempt(victim, world, &decisions)
            case .wait: break
            }
            queue.addAhead(p, priority: priority(p, world), at: world.now)
        } else {
            queue.add(p, priority: priority(p, world), at: world.now)
        }
        keys.add(p)
        flow(world, &decisions)
    }

    private func isDuplicate(_ p: PopupID) -> Bool {
        switch rules.dedupe {
        case .off: return false
        case .queued: return keys.isQueued(p)
        case .visible: return keys.isQueued(p) || keys.sharesKey(p, with: screen.order)
        }
    }

    // MARK: Taking the next

    private var occupying: Int { rules.handoff == .crossFade ? screen.count - screen.leavingCount : screen.count }

    /// Free slots take the next popups; a line left waiting by full slots evicts or cuts.
    private mutating func flow(_ world: World, _ decisions: inout Decisions) {
        guard !suspended else { return }
        while true {
            while occupying < rules.slots, let next = takeNext(world, &decisions) { show(next, world, &decisions) }
            // Making room is for a popup that could show now: not one its `when` or pacing holds back.
            guard !queue.isEmpty, occupying >= rules.slots, hasReady(world) else { return }
            switch rules.overflow {
            case .wait: return
            case .cut: if !screen.cutOldest(&decisions) { return }
            case .evict:
                if let victim = screen.evictOldest(world) { close(victim, .evicted, &decisions) }
                return
            }
        }
    }

    private mutating func takeNext(_ world: World, _ decisions: inout Decisions) -> PolicyQueue.Entry? {
        let passOver = rules.conditions == .any && rules.failing == .wait
        // Asked per waiting popup, not per entry: the popups that could show now (when none
        // could, no entry is looked at); the line is then searched for the first of them.
        var eligible = Set<PopupID>()
        if passOver {
            for p in queue.waiting where !screen.contains(p) && holds(p, world) { eligible.insert(p) }
            if eligible.isEmpty { return nil }
        }
        // A popup its scope's gap or cooldown holds keeps its place; the line is retried when
        // the first of them is free.
        var scopeFrees: Int?
        func scopeHolds(_ p: PopupID) -> Bool {
            guard capped.paces, let (_, until) = capped.held(p, at: world.now) else { return false }
            scopeFrees = min(scopeFrees ?? until, until)
            return true
        }
        defer { if let at = scopeFrees { retry(at: at, world, &decisions) } }
        while let (position, entry) = queue.first(where: {
            !screen.contains($0.popup) && (!passOver || eligible.contains($0.popup)) && !scopeHolds($0.popup)
        }) {
            let p = entry.popup
            if let reason = leaves(entry, world) {
                take(position)
                decisions.drop(p, reason)
                continue
            }
            if rules.conditions != .ignore && !holds(p, world) {
                guard rules.failing == .drop else { return nil }
                take(position)
                decisions.drop(p, .condition)
                continue
            }
            if let at = pacing.until(world.now) {
                retry(at: at, world, &decisions)
                return nil
            }
            let entry = take(position)
            taken[Int(p.index)] = entry
            return entry
        }
        return nil
    }

    /// Whether a waiting popup could show now (side-effect free): pacing allows, and its `when`
    /// holds or is not read.
    private mutating func hasReady(_ world: World) -> Bool {
        guard pacing.until(world.now) == nil else { return false }
        if rules.conditions == .ignore && !capped.paces { return true }
        for p in queue.waiting where (rules.conditions == .ignore || holds(p, world)) && (!capped.paces || capped.held(p, at: world.now) == nil) {
            return true
        }
        return false
    }

    /// Whether `p`'s `when` holds, judged once per state.
    private mutating func holds(_ p: PopupID, _ world: World) -> Bool {
        if judgedAt != world.stateVersion || judged.count != world.traits.count {
            judged.refill(-1, count: world.traits.count)
            judgedAt = world.stateVersion
        }
        let i = Int(p.index)
        if judged[i] < 0 { judged[i] = world.conditionHolds(p) ? 1 : 0 }
        return judged[i] == 1
    }

    @discardableResult
    private mutating func take(_ position: PolicyQueue.Position) -> PolicyQueue.Entry {
        let entry = queue.remove(at: position)
        keys.remove(entry.popup)
        return entry
    }

    /// Why a popup that comes up leaves the line instead of showing, if it does.
    private func leaves(_ entry: PolicyQueue.Entry, _ world: World) -> Reason? {
        let p = entry.popup
        let own = rules.popupLimits == .honour ? world.popup(p) : nil
        let ttl = own?.ttlMs ?? rules.ttlMs
        if ttl > 0 && world.now - entry.since > ttl { return .expired }
        if entry.returning { return nil }
        let cap = own?.maxShows ?? rules.lifetimeCap
        if cap > 0 && shows[Int(world.base(p).index)] >= cap { return .quota }
        if rules.dailyCap > 0 && pacing.shows(within: Self.day, of: world.now) >= rules.dailyCap { return .quota }
        if capped.full(p, at: world.now) { return .quota }
        return nil
    }

    private mutating func retry(at: Int, _ world: World, _ decisions: inout Decisions) {
        if let pending = retryAt, pending <= at { return }
        retryAt = at
        decisions.startTimer(after: at - world.now, token: 0)
    }

    private mutating func show(_ entry: PolicyQueue.Entry, _ world: World, _ decisions: inout Decisions) {
        let p = entry.popup
        screen.add(p)
        resumeWith[Int(p.index)] = entry.left
        pacing.recordShow(at: world.now, counted: !entry.returning)
        capped.record(p, at: world.now, counted: !entry.returning)
        if !entry.returning { shows[Int(world.base(p).index)] += 1 }
        decisions.show(p)
        if rules.timerAnchor == .show { timerStarts(p, world, &decisions) }
    }

    private mutating func shown(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if screen.entranceEnded(p) {
            close(p, .evicted, &decisions)
        } else if rules.timerAnchor == .shown {
            timerStarts(p, world, &decisions)
        }
    }

    /// Notes a display timer starting; a popup returning with time left gets only that.
    private mutating func timerStarts(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        let i = Int(p.index)
        timers.start(p, at: world.now, duration: world.traits(p).duration)
        if let left = resumeWith[i], world.traits(p).duration != nil {
            resumeWith[i] = nil
            timers.start(p, at: world.now, duration: left)
            decisions.restartTimer(p, ms: left)
        }
    }

    // MARK: Leaving the screen

    mutating func close(_ p: PopupID, _ reason: Reason, _ decisions: inout Decisions) {
        markLeaving(p)
        decisions.hide(p, reason)
    }

    private mutating func markLeaving(_ p: PopupID) {
        forget(p)
        screen.markLeaving(p)
    }

    /// A popup leaving the screen takes no timer along.
    private mutating func forget(_ p: PopupID) {
        timers.clear(p)
        resumeWith[Int(p.index)] = nil
    }
}
