/// sonner v2: every toast shows at once, newest on top; beyond the visible limit the oldest are
/// covered, and a covered toast's timer keeps running.
///
/// - Source: semantics/peers.md §3.3; emilkowalski/sonner 8e4662b (v2.0.8), `state.ts`, `index.tsx`.
/// - Arrival: the toast shows at once. If more than `slots` (`visibleToasts`, 3) toasts are then
///   mounted (leaving ones count until they unmount), the one pushed out of the newest `slots` is
///   covered (`hide … covered`, at once: it is still mounted, only hidden).
/// - A covered toast's countdown runs on from its first show; if it ends while covered the toast
///   goes unseen (`drop … duration`). When a toast unmounts (`hideMs`, 200, after its hide) the
///   newest covered one comes back (`show … uncovered`) with the time it has left.
/// - Display time from `show`: `duration` (option default 4000; `"forever"` is `Infinity`).
/// - Option `ids`. `given` (the default: the app passes the popup's name as the toast's `id`):
///   the same toast again updates it in place (`drop … duplicate`), and its countdown starts
///   again with what it had — its duration, or what was left at its last pause (`index.tsx`
///   :219-241: the timer effect reruns on the new toast object with `remainingTime`); a paused
///   one stays paused, a leaving one still leaves. `none` (`toast()` without an id, `state.ts`
///   :23-25): every request is a new toast, an instance (`Saved#2`), a covered one's too (its
///   request is still open, so it is not free for another).
/// - `remove p` is `toast.dismiss(id)` for every toast of p; `clear` is `toast.dismiss()` for
///   every toast.
/// - `pauseTimers` / `resumeTimers` (hover, a pointer down, a hidden document; sonner pauses every
///   toast's timer, covered ones too) stop the countdowns, which go on with what they had left.
struct SonnerStrategy: Strategy {
    static let name = "sonner"
    static let summary = "sonner: newest on top, a visible limit; covered toasts keep counting down and may expire unseen"
    static let options: [OptionSpec] = [
        .slots(default: 3, "toasts visible at once (visibleToasts)"),
        OptionSpec(name: "ids", summary: "a toast requested again: given (the app passes an id: it is updated) or none (a new toast)",
                   kind: .choice(["given", "none"]), defaultValue: .text("given")),
        .duration(default: 4000), .showMs(default: 0), .hideMs(default: 200), .navMs,
    ]
    static let modelledActions: [ActionKind] = [.remove, .clear, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse
    static let timerAnchor = TimerAnchor.show

    private let slots: Int
    private let newToasts: Bool
    /// What each mounted toast's countdown starts again with when it is updated: its duration,
    /// or what it had left at its last pause (the library's `remainingTime`).
    private var remaining: [Int?]
    /// Mounted toasts, oldest first (leaving ones until they unmount).
    private var mounted: OrderedPopupSet
    private var covered: [Bool]
    private var leaving: [Bool]
    /// Each mounted toast's countdown, and what a paused one has left.
    private var timers: DisplayTimers
    /// Bumped to cancel a covered toast's expiry timer (the token is the popup's index).
    private var expiryGeneration: [Int]
    private var expiries: [(popup: PopupID, generation: Int)] = []

    init(world: World) {
        slots = world.options[.slots] ?? 1
        newToasts = world.options.text("ids") == "none"
        let n = world.scenario.popups.count
        remaining = Array(repeating: nil, count: n)
        mounted = OrderedPopupSet(popups: n)
        covered = Array(repeating: false, count: n)
        leaving = covered
        timers = DisplayTimers(popups: n)
        expiryGeneration = Array(repeating: 0, count: n)
    }

    var instancePolicy: InstancePolicy { newToasts ? .perRequest : .merge }

    /// `ids: none`: room for the new toast.
    mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World) {
        mounted.addInstance()
        covered.append(false)
        leaving.append(false)
        timers.addInstance()
        expiryGeneration.append(0)
        remaining.append(nil)
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            add(p, world, &decisions)
        case .dismissing(let p, _):
            leaving[Int(p.index)] = true
        case .gone(let p):
            unmount(p, world, &decisions)
        case .timer(let token):
            let (p, generation) = expiries[token]
            guard covered[Int(p.index)], expiryGeneration[Int(p.index)] == generation else { return }
            covered[Int(p.index)] = false
            mounted.remove(p)
            decisions.drop(p, .duration)
        case .remove(let p):
            // Every toast of p (`ids: none` makes several): p, then its instances by number.
            for q in [p] + world.instances(of: p) { dismiss(q, .removed, world, &decisions) }
        case .clear:
            for p in mounted.elements { dismiss(p, .cleared, world, &decisions) }
        case .pauseTimers(let target):
            pause(target, world, &decisions)
        case .resumeTimers(let target):
            resume(target, world, &decisions)
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] { mounted.elements.filter { covered[Int($0.index)] } }

    private mutating func add(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if mounted.contains(p) {
            decisions.drop(p, .duplicate)
            return update(p, world, &decisions)
        }
        mounted.append(p)
        remaining[Int(p.index)] = world.traits(p).duration
        timers.start(p, at: world.now, duration: world.traits(p).duration)
        if let q = mounted.newest(slots.plus(1)), !covered[Int(q.index)] && !leaving[Int(q.index)] {
            cover(q, now: world.now, &decisions)
        }
        decisions.show(p)
    }

    /// The toast updated in place: its countdown starts again with `remaining`, unless it is
    /// paused or leaving.
    private mutating func update(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        let i = Int(p.index)
        guard !leaving[i], timers.paused(p) == nil, let ms = remaining[i] else { return }
        timers.start(p, at: world.now, duration: ms)
        if covered[i] { startExpiry(p, after: ms, &decisions) } else { decisions.restartTimer(p, ms: ms) }
    }

    private mutating func cover(_ q: PopupID, now: Int, _ decisions: inout Decisions) {
        covered[Int(q.index)] = true
        decisions.hide(q, .covered, ms: 0)
        guard let left = timers.timeLeft(q, at: now, floor: 0) else { return }
        startExpiry(q, after: left, &decisions)
    }

    /// A covered toast's countdown, on a strategy timer (the engine's stops with the hide).
    private mutating func startExpiry(_ q: PopupID, after ms: Int, _ decisions: inout Decisions) {
        expiryGeneration[Int(q.index)] += 1
        expiries.append((q, expiryGeneration[Int(q.index)]))
        decisions.startTimer(after: ms, token: expiries.count - 1)
    }

    private mutating func dismiss(_ p: PopupID, _ reason: Reason, _ world: World, _ decisions: inout Decisions) {
        guard mounted.contains(p), !leaving[Int(p.index)] else { return }
        if covered[Int(p.index)] {
            covered[Int(p.index)] = false
            expiryGeneration[Int(p.index)] += 1
            mounted.remove(p)
            decisions.drop(p, reason)
        } else {
            leaving[Int(p.index)] = true
            decisions.hide(p, reason)
        }
    }

    /// Hover, a pointer down or a hidden document stop every countdown; each keeps what is left.
    private mutating func pause(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in targets(target, world) where !leaving[Int(p.index)] {
            guard let left = timers.pause(p, at: world.now, floor: 0) else { continue }
            remaining[Int(p.index)] = left
            if covered[Int(p.index)] { expiryGeneration[Int(p.index)] += 1 } else { decisions.stopTimer(p) }
        }
    }

    /// The countdowns go on with what they had left.
    private mutating func resume(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for p in targets(target, world) {
            guard let left = timers.resume(p, at: world.now) else { continue }
            if covered[Int(p.index)] {
                startExpiry(p, after: left, &decisions)
            } else if world.isVisibleAndStaying(p) {
                decisions.restartTimer(p, ms: left)
            }
        }
    }

    /// The mounted toasts a pause or resume reaches, oldest first (a popup's: it and its
    /// instances, by number).
    private func targets(_ target: TimerTarget, _ world: World) -> [PopupID] {
        if case .popup(let q) = target { return ([q] + world.instances(of: q)).filter { mounted.contains($0) } }
        return mounted.elements
    }

    /// A toast unmounted: the newest covered one that is now within the visible limit returns.
    private mutating func unmount(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        guard leaving[Int(p.index)] else { return }
        leaving[Int(p.index)] = false
        mounted.remove(p)
        for q in mounted.suffix(slots) where covered[Int(q.index)] {
            covered[Int(q.index)] = false
            expiryGeneration[Int(q.index)] += 1
            decisions.show(q, reason: .uncovered)
            if let left = timers.timeLeft(q, at: world.now, floor: 0) {
                decisions.restartTimer(q, ms: left)
            } else if world.traits(q).duration != nil {
                decisions.stopTimer(q)  // still paused
            }
        }
    }
}
