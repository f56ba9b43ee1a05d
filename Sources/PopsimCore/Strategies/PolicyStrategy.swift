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
struct PolicyStrategy: Strategy {
    static let name = "policy"
    static let summary = "your own rules: order, busy rule, slots, overflow, conditions, timers, dedupe, pacing (docs/policy.md)"
    static let options = PolicyRules.options
    static let modelledFields: [PopupField] = [.priority, .when, .level, .arrival, .dedupeKey, .ttlMs, .maxShows]
    static let modelledActions: [ActionKind] = [.remove, .clear, .suspend, .resume, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse
    static let day = 86_400_000

    /// What the knobs read: `when` only if `conditions` does, `dedupeKey` only for `dedupeBy: key`,
    /// the app's actions only where honoured, and so on.
    static func modelled(under options: ResolvedOptions) -> (fields: [PopupField], actions: [ActionKind]) {
        let r = PolicyRules(options)
        var fields: [PopupField] = []
        if r.order == .priorityFIFO || r.order == .priorityLIFO || r.busyFor == .higher { fields.append(.priority) }
        if r.conditions != .ignore { fields.append(.when) }
        if r.busyFor == .high { fields.append(.level) }
        if r.busyFor == .arrival { fields.append(.arrival) }
        if r.dedupe != .off && r.dedupeBy == .key { fields.append(.dedupeKey) }
        if r.popupLimits == .honour { fields += [.ttlMs, .maxShows] }
        var actions: [ActionKind] = []
        if r.remove == .honour { actions.append(.remove) }
        if r.clear != .ignore { actions.append(.clear) }
        if r.suspend == .honour { actions += [.suspend, .resume] }
        if r.pause != .ignore { actions += [.pauseTimers, .resumeTimers] }
        return (fields, actions)
    }
    static let normalPriority = 100

    private let rules: PolicyRules
    private var queue: PolicyQueue
    /// On screen, oldest first, leaving ones included until `gone`.
    private var screen: [PopupID] = []
    private var onScreen: [Bool]
    private var leaving: [Bool]
    private var leavingCount = 0
    private var flagged: [PopupID] = []
    /// The queue entry each popup on screen was taken from (to put a preempted one back).
    private var taken: [PolicyQueue.Entry?]
    private let ids: [Int]
    private var queuedWithID: [Int]
    private var suspended = false
    private var shows: [Int]
    /// When each show (not a return) happened, in time order, trimmed to the longest window.
    private var showTimes: [Int] = []
    private var lastShowAt: Int?
    private var lastGoneAt: Int?
    private var retryAt: Int?
    /// Display timers as the policy knows them: when each started and for how long; what a paused
    /// one has left (until it leaves the screen); what a returning one resumes with (from its
    /// queue entry, until its timer starts).
    private var timerStart: [Int?]
    private var timerLength: [Int?]
    private var paused: [Int?]
    private var resumeWith: [Int?]
    private var holds: TimerHolds?

    init(world: World) {
        rules = PolicyRules(world.options)
        queue = PolicyQueue(rules.order)
        let n = world.scenario.popups.count
        onScreen = Array(repeating: false, count: n)
        leaving = onScreen
        taken = Array(repeating: nil, count: n)
        ids = rules.dedupeBy == .key ? DedupeNumbers(world.scenario.popups).numbers : Array(0..<n)
        queuedWithID = Array(repeating: 0, count: n)
        shows = Array(repeating: 0, count: n)
        timerStart = Array(repeating: nil, count: n)
        timerLength = timerStart
        paused = timerStart
        resumeWith = timerStart
        switch rules.pause {
        case .restart: holds = TimerHolds(.restart, popups: n)
        case .half: holds = TimerHolds(.half, popups: n)
        case .ignore, .resume: holds = nil
        }
    }

    var traits: StrategyTraits {
        StrategyTraits(name: Self.name, buttonActions: rules.buttons == .atGone ? .atGone : .atResponse,
                       timerAnchor: rules.timerAnchor, crossFades: rules.handoff == .crossFade)
    }

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p): arrive(p, world, &decisions)
        case .shown(let p): shown(p, world, &decisions)
        case .dismissing(let p, _):
            markLeaving(p)
            if rules.handoff == .crossFade { flow(world, &decisions) }
        case .gone(let p):
            if let i = screen.firstIndex(of: p) { screen.remove(at: i) }
            flagged.removeAll { $0 == p }
            unmark(p)
            lastGoneAt = world.now
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
            remove(p, &decisions)
            flow(world, &decisions)
        case .clear:
            clear(&decisions)
            flow(world, &decisions)
        case .pauseTimers(let target) where rules.pause == .resume: pause(target, world, &decisions)
        case .resumeTimers(let target) where rules.pause == .resume: resume(target, world, &decisions)
        default: holds?.handle(happening, on: screen, world, &decisions)
        }
    }

    func pending(in world: World) -> [PopupID] { queue.elements.map(\.popup) }

    func heldBack(_ popup: PopupID, in world: World) -> HoldReason? {
        if suspended { return .suspended }
        if let reason = pacing(world.now) { return reason }
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
        queuedWithID[ids[Int(p.index)]] += 1
        flow(world, &decisions)
    }

    private func isDuplicate(_ p: PopupID) -> Bool {
        let id = ids[Int(p.index)]
        switch rules.dedupe {
        case .off: return false
        case .queued: return queuedWithID[id] > 0
        case .visible: return queuedWithID[id] > 0 || screen.contains { ids[Int($0.index)] == id }
        }
    }

    /// The shown popup the busy rule acts on, if the rule is for `p` (every arrival, a `level: high`
    /// one, one that outranks, or one whose `arrival` is `replace`): the oldest staying one (for
    /// `higher`, the lowest priority, which `p` must outrank).
    private func victim(for p: PopupID, _ world: World) -> PopupID? {
        let staying = screen.filter { !leaving[Int($0.index)] }
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
    private mutating func preempt(_ victim: PopupID, _ world: World, _ decisions: inout Decisions) {
        let i = Int(victim.index)
        var entry = taken[i] ?? PolicyQueue.Entry(popup: victim, sequence: -1, priority: priority(victim, world), since: world.now)
        entry.since = world.now
        entry.returning = true
        entry.left = nil
        if rules.timerOnReturn == .resume {
            if let start = timerStart[i], let length = timerLength[i] {
                entry.left = max(1, length - (world.now - start))
            } else {
                entry.left = paused[i]
            }
        }
        close(victim, .preempted, &decisions)
        decisions.requeue(victim, .preempted)
        queue.putBack(entry, first: rules.returnTo == .first)
        queuedWithID[ids[Int(victim.index)]] += 1
    }

    private func priority(_ p: PopupID, _ world: World) -> Int { world.traits(p).priority ?? Self.normalPriority }

    // MARK: Taking the next

    private var occupying: Int { rules.handoff == .crossFade ? screen.count - leavingCount : screen.count }

    /// Free slots take the next popups; a line left waiting by full slots evicts or cuts.
    private mutating func flow(_ world: World, _ decisions: inout Decisions) {
        guard !suspended else { return }
        while true {
            while occupying < rules.slots, let next = takeNext(world, &decisions) { show(next, world, &decisions) }
            // Making room is for a popup that could show now: not one its `when` or pacing holds back.
            guard !queue.isEmpty, occupying >= rules.slots, hasReady(world) else { return }
            switch rules.overflow {
            case .wait: return
            case .cut: if !cutOldest(&decisions) { return }
            case .evict: return evictOldest(world, &decisions)
            }
        }
    }

    private mutating func takeNext(_ world: World, _ decisions: inout Decisions) -> PolicyQueue.Entry? {
        let passOver = rules.conditions == .any && rules.failing == .wait
        // Asked per waiting popup, not per entry: the popups that could show now (when none
        // could, no entry is looked at); the line is then searched for the first of them.
        var eligible = Set<PopupID>()
        if passOver {
            for p in queue.waiting where !onScreen[Int(p.index)] && world.conditionHolds(p) { eligible.insert(p) }
            if eligible.isEmpty { return nil }
        }
        while let (position, entry) = queue.first(where: { !onScreen[Int($0.popup.index)] && (!passOver || eligible.contains($0.popup)) }) {
            let p = entry.popup
            if let reason = leaves(entry, world) {
                take(position)
                decisions.drop(p, reason)
                continue
            }
            if rules.conditions != .ignore && !world.conditionHolds(p) {
                guard rules.failing == .drop else { return nil }
                take(position)
                decisions.drop(p, .condition)
                continue
            }
            if let at = pacedUntil(world.now) {
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
    private func hasReady(_ world: World) -> Bool {
        guard pacedUntil(world.now) == nil else { return false }
        if rules.conditions == .ignore { return true }
        return queue.waiting.contains { world.conditionHolds($0) }
    }

    @discardableResult
    private mutating func take(_ position: PolicyQueue.Position) -> PolicyQueue.Entry {
        let entry = queue.remove(at: position)
        queuedWithID[ids[Int(entry.popup.index)]] -= 1
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
        if cap > 0 && shows[Int(p.index)] >= cap { return .quota }
        if rules.dailyCap > 0 && showsWithin(Self.day, of: world.now) >= rules.dailyCap { return .quota }
        return nil
    }

    /// Which pacing rule holds the line at `now`, if one does (the one that holds it longest).
    private func pacing(_ now: Int) -> HoldReason? {
        var reason: HoldReason?, until = now
        if rules.minGapMs > 0, let last = lastShowAt, last.plus(rules.minGapMs) > until { (reason, until) = (.minimumGap, last.plus(rules.minGapMs)) }
        if rules.cooldownMs > 0, let gone = lastGoneAt, gone.plus(rules.cooldownMs) > until { (reason, until) = (.cooldown, gone.plus(rules.cooldownMs)) }
        if rules.rateCount > 0, rules.rateWindowMs > 0, showsWithin(rules.rateWindowMs, of: now) >= rules.rateCount,
           showTimes[showTimes.count - rules.rateCount].plus(rules.rateWindowMs) > until {
            reason = .rateLimit
        }
        return reason
    }

    /// The instant pacing next allows a show, if later than `now`.
    private func pacedUntil(_ now: Int) -> Int? {
        var at = now
        if rules.minGapMs > 0, let last = lastShowAt { at = max(at, last.plus(rules.minGapMs)) }
        if rules.cooldownMs > 0, let gone = lastGoneAt { at = max(at, gone.plus(rules.cooldownMs)) }
        if rules.rateCount > 0, rules.rateWindowMs > 0 {
            let recent = showsWithin(rules.rateWindowMs, of: now)
            if recent >= rules.rateCount {
                at = max(at, showTimes[showTimes.count - rules.rateCount].plus(rules.rateWindowMs))
            }
        }
        return at > now ? at : nil
    }

    /// Shows in the last `window` ms up to `now`, by binary search in the sorted times.
    private func showsWithin(_ window: Int, of now: Int) -> Int {
        var low = 0, high = showTimes.count
        while low < high {
            let mid = (low + high) / 2
            if now - showTimes[mid] < window { high = mid } else { low = mid + 1 }
        }
        return showTimes.count - low
    }

    private mutating func retry(at: Int, _ world: World, _ decisions: inout Decisions) {
        if let pending = retryAt, pending <= at { return }
        retryAt = at
        decisions.startTimer(after: at - world.now, token: 0)
    }

    private mutating func show(_ entry: PolicyQueue.Entry, _ world: World, _ decisions: inout Decisions) {
        let p = entry.popup
        screen.append(p)
        onScreen[Int(p.index)] = true
        resumeWith[Int(p.index)] = entry.left
        lastShowAt = world.now
        if !entry.returning {
            shows[Int(p.index)] += 1
            showTimes.append(world.now)
        }
        let horizon = max(rules.rateWindowMs, rules.dailyCap > 0 ? Self.day : 0)
        if showTimes.count > 64, let first = showTimes.first, world.now - first >= horizon {
            showTimes.removeAll { world.now - $0 >= horizon }
        }
        decisions.show(p)
        if rules.timerAnchor == .show { timerStarts(p, world, &decisions) }
    }

    private mutating func shown(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if let i = flagged.firstIndex(of: p) {
            flagged.remove(at: i)
            close(p, .evicted, &decisions)
        } else if rules.timerAnchor == .shown {
            timerStarts(p, world, &decisions)
        }
    }

    /// Notes a display timer starting; a popup returning with time left gets only that.
    private mutating func timerStarts(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        let i = Int(p.index)
        timerStart[i] = world.now
        timerLength[i] = world.traits(p).duration
        if let left = resumeWith[i], world.traits(p).duration != nil {
            resumeWith[i] = nil
            timerLength[i] = left
            decisions.restartTimer(p, ms: left)
        }
    }

    // MARK: Leaving the screen

    private mutating func cutOldest(_ decisions: inout Decisions) -> Bool {
        guard let victim = screen.first(where: { !leaving[Int($0.index)] }) else { return false }
        screen.removeAll { $0 == victim }
        onScreen[Int(victim.index)] = false
        flagged.removeAll { $0 == victim }
        decisions.hide(victim, .evicted, ms: 0)
        return true
    }

    private mutating func evictOldest(_ world: World, _ decisions: inout Decisions) {
        guard leavingCount == 0, flagged.isEmpty, let oldest = screen.first else { return }
        let victim = screen.first { world.traits($0).duration != nil } ?? oldest
        // One still entering (or shown in this very reply) closes when its entrance ends.
        if world.phase(victim) != .shown {
            flagged.append(victim)
        } else {
            close(victim, .evicted, &decisions)
        }
    }

    private mutating func close(_ p: PopupID, _ reason: Reason, _ decisions: inout Decisions) {
        markLeaving(p)
        decisions.hide(p, reason)
    }

    private mutating func markLeaving(_ p: PopupID) {
        let i = Int(p.index)
        timerStart[i] = nil
        paused[i] = nil
        resumeWith[i] = nil
        flagged.removeAll { $0 == p }
        guard onScreen[i], !leaving[i] else { return }
        leaving[i] = true
        leavingCount += 1
    }

    private mutating func unmark(_ p: PopupID) {
        let i = Int(p.index)
        onScreen[i] = false
        paused[i] = nil
        resumeWith[i] = nil
        if leaving[i] { leavingCount -= 1 }
        leaving[i] = false
    }

    // MARK: The app's actions

    private mutating func remove(_ p: PopupID, _ decisions: inout Decisions) {
        for entry in queue.removeAll(p) {
            queuedWithID[ids[Int(entry.popup.index)]] -= 1
            decisions.drop(entry.popup, .removed)
        }
        if onScreen[Int(p.index)] && !leaving[Int(p.index)] { close(p, .removed, &decisions) }
    }

    private mutating func clear(_ decisions: inout Decisions) {
        if rules.clear == .all || rules.clear == .queue {
            for entry in queue.removeAll() {
                queuedWithID[ids[Int(entry.popup.index)]] -= 1
                decisions.drop(entry.popup, .cleared)
            }
        }
        if rules.clear == .all || rules.clear == .screen {
            for p in screen where !leaving[Int(p.index)] { close(p, .cleared, &decisions) }
        }
    }

    /// `pauseTimers: resume`: the timer stops and keeps what it had left (sonner).
    private mutating func pause(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in screen where target.includes(p) && world.isVisibleAndStaying(p) {
            let i = Int(p.index)
            guard let start = timerStart[i], let length = timerLength[i] else { continue }
            paused[i] = max(1, length - (world.now - start))
            timerStart[i] = nil
            decisions.stopTimer(p)
        }
    }

    private mutating func resume(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in screen where target.includes(p) && world.isVisibleAndStaying(p) {
            let i = Int(p.index)
            guard let left = paused[i] else { continue }
            paused[i] = nil
            timerStart[i] = world.now
            timerLength[i] = left
            decisions.restartTimer(p, ms: left)
        }
    }
}
