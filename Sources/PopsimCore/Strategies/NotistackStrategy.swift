/// notistack v3: `maxSnack` slots; when they are full the oldest snack is evicted, one at a time.
///
/// - Source: semantics/peers.md §3.1; iamhosseindhv/notistack 8bafe10 (v3.0.2),
///   `SnackbarProvider.tsx`, `SnackbarItem.tsx`, `Collapse.tsx`.
/// - Slots (option `slots`, 3) are shared by every anchor. A snack holds its slot until `gone`
///   (its exit, about 495 ms: slide, pause, collapse).
/// - Arrival: every `enqueueSnackbar` is a snack of its own (a new id, `SnackbarProvider.tsx`
///   :81-82): a popup requested again while on screen or queued is a new instance (`Saved#2`),
///   shown beside the first when a slot is free. With option `dedupe: on` (`preventDuplicate`) a
///   snack whose `dedupeKey` (else its popup's name) matches one queued or on screen — leaving
///   ones included — is ignored (`drop Saved#2 duplicate`). Free slots take the queue head.
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
/// - `remove p` is `closeSnackbar(key)` for every snack of p: the queued ones leave, in queue
///   order, and those on screen close, oldest first. `clear` is `closeSnackbar()`: every snack on
///   screen closes, the queue stays and flows in.
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
    static let instances = InstancePolicy.perRequest

    private let slots: Int
    private let dedupe: Bool
    private let overflow: String
    /// How many queued snacks have each dedupe key; how many snacks of each file's popup are
    /// queued (its instances counted as it: `remove` asks by popup).
    private var keys: DedupeCounts
    private var queued: PopupCounts
    /// On screen, oldest first, leaving ones included until `gone` (and the two ways to make room).
    private var snacks: ScreenSlots
    /// A deque: a burst of a million arrivals drains from the front in linear time.
    private var queue = Deque<PopupID>()
    private var holds: TimerHolds

    init(world: World) {
        slots = world.options[.slots] ?? 1
        dedupe = world.options.text("dedupe") == "on"
        overflow = world.options.text("overflow")
        keys = DedupeCounts(world.scenario.popups)
        queued = PopupCounts(popups: world.scenario.popups.count)
        snacks = ScreenSlots(popups: world.scenario.popups.count)
        holds = TimerHolds(.half, popups: world.scenario.popups.count)
    }

    /// Room for the new snack; it has its popup's dedupe key.
    mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World) {
        keys.addInstance(of: base)
        snacks.addInstance()
        holds.addInstance()
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            if isDuplicate(p) {
                decisions.drop(p, .duplicate)
                return
            }
            queue.append(p)
            queued.add(world.base(p))
            keys.add(p)
            flow(world, &decisions)
        case .shown(let p):
            if snacks.entranceEnded(p) { close(p, .evicted, &decisions) }
        case .dismissing(let p, _):
            snacks.markLeaving(p)
        case .gone(let p):
            snacks.gone(p)
            flow(world, &decisions)
        case .remove(let p):
            // Every snack of p: those queued leave in queue order, those on screen close
            // oldest first.
            let some = !world.instances(of: p).isEmpty
            if queued.contains(p) {
                // Two literal closures, each inlined into the pass (a closure chosen at run time is not).
                let removed = some ? queue.remove(where: { world.base($0) == p }) : queue.remove(where: { $0 == p })
                for q in removed {
                    decisions.drop(q, .removed)
                    keys.remove(q)
                }
                queued.removeAll(p)
            }
            for q in snacks.order where (some ? world.base(q) == p : q == p) && !snacks.isLeaving(q) { close(q, .removed, &decisions) }
        case .clear:
            for p in snacks.staying { close(p, .cleared, &decisions) }
        default:
            holds.handle(happening, on: snacks.order, world, &decisions)
        }
    }

    func pending(in world: World) -> [PopupID] { queue.elements }

    private func isDuplicate(_ p: PopupID) -> Bool {
        guard dedupe else { return false }
        return keys.isQueued(p) || keys.sharesKey(p, with: snacks.order)
    }

    /// Free slots take the queue head; a queue left waiting evicts the oldest snack, or cuts it.
    private mutating func flow(_ world: World, _ decisions: inout Decisions) {
        while true {
            // A queued snack is never on screen (a request of one on screen is an instance of its
            // own), so this is the head; the check guards the order all the same.
            while snacks.count < slots, let i = queue.firstIndex(where: { !snacks.contains($0) }) {
                let next = queue.remove(at: i)
                queued.remove(world.base(next))
                keys.remove(next)
                snacks.add(next)
                decisions.show(next)
            }
            // Nothing waits, or only copies waiting for their own `gone` (not for a slot).
            guard !queue.isEmpty, snacks.count >= slots else { return }
            switch overflow {
            case "cut": if !snacks.cutOldest(&decisions) { return }
            case "wait": return
            default:
                if let victim = snacks.evictOldest(world) { close(victim, .evicted, &decisions) }
                return
            }
        }
    }

    private mutating func close(_ p: PopupID, _ reason: Reason, _ decisions: inout Decisions) {
        snacks.markLeaving(p)
        decisions.hide(p, reason)
    }
}
