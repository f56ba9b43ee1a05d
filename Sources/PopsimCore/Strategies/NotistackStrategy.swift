/// notistack v3: `maxSnack` slots; when they are full the oldest snack is evicted, one at a time.
///
/// - Source: semantics/peers.md §3.1; iamhosseindhv/notistack 8bafe10 (v3.0.2),
///   `SnackbarProvider.tsx`, `SnackbarItem.tsx`, `Collapse.tsx`.
/// - Slots (option `slots`, 3) are shared by every anchor. A snack holds its slot until `gone`
///   (its exit, about 495 ms: slide, pause, collapse).
/// - Arrival: with option `dedupe: on` (`preventDuplicate`) a snack whose `dedupeKey` (else name)
///   matches one queued or on screen — leaving ones included — is ignored (`drop … duplicate`).
///   Without it (the default) the same key is a second snack: it joins the queue, and since popsim
///   has one of each popup on screen, a queued copy of a popup still on screen keeps its place and
///   shows at that one's `gone`; the snacks behind it do not wait. Free slots take the queue head.
/// - Full: the oldest snack on screen is evicted (`hide … evicted`), skipping `persist` ones
///   (`duration: "forever"`) unless every snack is persistent. One eviction at a time: none while a
///   snack is leaving or flagged. A snack still entering is flagged and closes when its entrance
///   ends. When a snack is gone the queue head shows and, if the queue is still not empty, the next
///   oldest is evicted.
/// - Option `overflow` switches the policy for full slots to the other libraries' answers: `wait`
///   (react-toastify's `limit`: the queue waits for a slot) or `cut` (react-hot-toast's hard cap:
///   the oldest goes at once, no exit animation, `hide … evicted`).
/// - Display time from `show`: `duration` (option default 5000 = `autoHideDuration`). `pauseTimers`
///   / `resumeTimers` (hover, window blur) stop it, and it starts again with **half** the duration.
/// - `remove p` is `closeSnackbar(key)`: p closes or leaves the queue. `clear` is `closeSnackbar()`:
///   every snack on screen closes, the queue stays and flows in.
struct NotistackStrategy: Strategy {
    static let name = "notistack"
    static let summary = "notistack: maxSnack slots; when full the oldest non-persistent snack is evicted, one at a time"
    static let options: [OptionSpec] = [
        .slots(default: 3, "snacks on screen at once (maxSnack)"),
        .duration(default: 5000),
        OptionSpec(name: "dedupe", summary: "ignore a snack whose key is queued or on screen (preventDuplicate)",
                   kind: .choice(["on", "off"]), defaultValue: .text("off")),
        OptionSpec(name: "overflow", summary: "full slots: evict the oldest (notistack), wait (react-toastify limit), "
                   + "or cut the oldest at once, no exit (react-hot-toast's hard cap)",
                   kind: .choice(["evict", "wait", "cut"]), defaultValue: .text("evict")),
        .showMs(default: 225), .hideMs(default: 495), .navMs,
    ]
    static let modelledFields: [PopupField] = [.dedupeKey]
    static let modelledActions: [ActionKind] = [.remove, .clear, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse
    static let timerAnchor = TimerAnchor.show

    private let slots: Int
    private let dedupe: Bool
    private let overflow: String
    /// Each popup's dedupe key, numbered; how many queued snacks have each key; who is queued.
    private let ids: [Int]
    private var queuedWithID: [Int]
    private var queued: PopupCounts
    /// On screen, oldest first, leaving ones included until `gone`.
    private var snacks: [PopupID] = []
    private var leaving: [PopupID] = []
    private var flagged: [PopupID] = []
    /// A deque: a burst of a million arrivals drains from the front in linear time.
    private var queue = Deque<PopupID>()
    private var holds: TimerHolds

    init(world: World) {
        slots = world.options[.slots] ?? 1
        dedupe = world.options.text("dedupe") == "on"
        overflow = world.options.text("overflow")
        let numbers = DedupeNumbers(world.scenario.popups)
        ids = numbers.numbers
        queuedWithID = Array(repeating: 0, count: numbers.distinct)
        queued = PopupCounts(popups: world.scenario.popups.count)
        holds = TimerHolds(.half, popups: world.scenario.popups.count)
    }

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            if isDuplicate(p) {
                decisions.drop(p, .duplicate)
                return
            }
            queue.append(p)
            queued.add(p)
            queuedWithID[ids[Int(p.index)]] += 1
            flow(world, &decisions)
        case .shown(let p):
            if let i = flagged.firstIndex(of: p) {
                flagged.remove(at: i)
                close(p, .evicted, &decisions)
            }
        case .dismissing(let p, _):
            leaving.append(p)
            flagged.removeAll { $0 == p }
        case .gone(let p):
            snacks.removeAll { $0 == p }
            leaving.removeAll { $0 == p }
            flagged.removeAll { $0 == p }
            flow(world, &decisions)
        case .remove(let p):
            if queued.contains(p) {
                // Every queued copy of p is dropped (all the same popup: no order to keep).
                for _ in 0..<queued.count(p) {
                    decisions.drop(p, .removed)
                    queuedWithID[ids[Int(p.index)]] -= 1
                }
                queue.removeAll { $0 == p }
                queued.removeAll(p)
            }
            if snacks.contains(p) && !leaving.contains(p) { close(p, .removed, &decisions) }
        case .clear:
            for p in snacks where !leaving.contains(p) { close(p, .cleared, &decisions) }
        default:
            holds.handle(happening, on: snacks, world, &decisions)
        }
    }

    func pending(in world: World) -> [PopupID] { queue.elements }

    private func isDuplicate(_ p: PopupID) -> Bool {
        guard dedupe else { return false }
        let id = ids[Int(p.index)]
        return queuedWithID[id] > 0 || snacks.contains { ids[Int($0.index)] == id }
    }

    /// Free slots take the queue head; a queue left waiting evicts the oldest snack, or cuts it.
    private mutating func flow(_ world: World, _ decisions: inout Decisions) {
        while true {
            // A queued copy of a popup still on screen keeps its place and waits for that one's `gone`.
            while snacks.count < slots, let i = queue.firstIndex(where: { !snacks.contains($0) }) {
                let next = queue.remove(at: i)
                queued.remove(next)
                queuedWithID[ids[Int(next.index)]] -= 1
                snacks.append(next)
                decisions.show(next)
            }
            // Nothing waits, or only copies waiting for their own `gone` (not for a slot).
            guard !queue.isEmpty, snacks.count >= slots else { return }
            switch overflow {
            case "cut": if !cutOldest(world, &decisions) { return }
            case "wait": return
            default: return evictOldest(world, &decisions)
            }
        }
    }

    /// The hard cap: the oldest snack not already leaving goes at once, without its exit; with
    /// every snack leaving, the queue waits for the first `gone`. Returns whether it cut one.
    private mutating func cutOldest(_ world: World, _ decisions: inout Decisions) -> Bool {
        guard let victim = snacks.first(where: { !leaving.contains($0) }) else { return false }
        snacks.removeAll { $0 == victim }
        flagged.removeAll { $0 == victim }
        decisions.hide(victim, .evicted, ms: 0)
        return true
    }

    private mutating func evictOldest(_ world: World, _ decisions: inout Decisions) {
        guard leaving.isEmpty, flagged.isEmpty, let oldest = snacks.first else { return }
        let victim = snacks.first { world.traits($0).duration != nil } ?? oldest
        // Still entering (or shown in this very reply: `world` does not show it yet): it closes
        // when its entrance ends.
        if world.phase(victim) != .shown {
            flagged.append(victim)
        } else {
            close(victim, .evicted, &decisions)
        }
    }

    private mutating func close(_ p: PopupID, _ reason: Reason, _ decisions: inout Decisions) {
        leaving.append(p)
        flagged.removeAll { $0 == p }
        decisions.hide(p, reason)
    }
}
