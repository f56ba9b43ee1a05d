/// Android's system toast queue (`NotificationManagerService`): one FIFO for every app, a cap per
/// package, quotas for background apps checked at the head, and a longer time after a text toast.
///
/// - Source: semantics/peers.md §2.2; AOSP `NotificationManagerService.java` (`enqueueToast`,
///   `showNextToastLocked`, `tryShowToast`, `MAX_PACKAGE_TOASTS`, `TOAST_RATE_LIMITS`).
/// - `key` is the app's package (default `default`). Index 0 of the queue is the toast on screen.
/// - Arrival: the same toast already queued (or shown) keeps its place (`drop … duplicate`: its
///   duration is updated in place). A package with `queueCap` (5) toasts queued or shown gets the
///   new one rejected (`drop … overflow`). A toast that lands at index 0 shows at once.
/// - At the head, with option `background: yes`, a package over its quota — at most 3 displays per
///   20 s, 5 per 42 s, 6 per 68 s, sliding — loses the toast (`drop … rate-limit`) and the next is
///   tried. Foreground apps (the default) are exempt, and only background displays count.
/// - Display time from `show`: `duration` (option default 2000 = SHORT_DELAY; 3500 is LONG_DELAY)
///   plus 250 ms when a text toast was shown before (every toast in popsim is a text toast). When
///   it is up the toast is cancelled and the next shows at once (presents during hide).
/// - `remove p` is `cancel()`: p leaves the screen or the queue.
struct AndroidToastStrategy: Strategy {
    static let name = "android-toast"
    static let summary = "Android system toasts: one FIFO, 5 per package, background quotas at the head, +250 ms after a text toast"
    static let options: [OptionSpec] = [
        .duration(default: 2000),
        OptionSpec(name: "queueCap", summary: "toasts one package may have queued or shown", kind: .integer(minimum: 1),
                   defaultValue: .integer(5)),
        OptionSpec(name: "background", summary: "the apps are in the background (quotas apply)", kind: .choice(["no", "yes"]),
                   defaultValue: .text("no")),
        .showMs(default: 0), .hideMs(default: 0), .navMs,
    ]
    static let modelledFields: [PopupField] = [.key]
    static let modelledActions: [ActionKind] = [.remove]
    static let buttonActions = ButtonActionTiming.atResponse
    static let timerAnchor = TimerAnchor.show
    static let crossFades = true
    /// `TOAST_RATE_LIMITS`.
    static let quotas = [Pacing.Window(count: 3, windowMs: 20_000), Pacing.Window(count: 5, windowMs: 42_000),
                         Pacing.Window(count: 6, windowMs: 68_000)]
    /// The extra time after a text toast, for its exit animation.
    static let textToastExtraMs = 250

    private let cap: Int
    private let background: Bool
    private let packages: KeyIndex
    private var quota: Pacing
    private var queue: [PopupID] = []
    /// The head this strategy has on screen.
    private var onScreen: PopupID?
    private var textToastShown = false

    init(world: World) {
        cap = world.options.integer("queueCap")
        background = world.options.text("background") == "yes"
        packages = KeyIndex(world.scenario)
        quota = Pacing(windows: Self.quotas, keys: packages.count)
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            if queue.contains(p) {
                decisions.drop(p, .duplicate)
            } else if queue.reduce(0, { $0 + (packages[$1] == packages[p] ? 1 : 0) }) >= cap {
                decisions.drop(p, .overflow)
            } else {
                queue.append(p)
                if onScreen == nil { showHead(world, &decisions) }
            }
        case .dismissing(let p, _) where onScreen == p:
            onScreen = nil
            queue.removeFirst()
            showHead(world, &decisions)
        case .gone where onScreen == nil:
            showHead(world, &decisions)
        case .remove(let p):
            if onScreen == p {
                onScreen = nil
                queue.removeFirst()
                decisions.hide(p, .removed)
                showHead(world, &decisions)
            } else if let i = queue.firstIndex(of: p) {
                queue.remove(at: i)
                decisions.drop(p, .removed)
            }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] { Array(queue.dropFirst(onScreen == nil ? 0 : 1)) }

    /// `showNextToastLocked`: the head shows unless its package is over quota, then the next.
    private mutating func showHead(_ world: World, _ decisions: inout Decisions) {
        while let head = queue.first {
            if background && !quota.allows(packages[head], at: world.now) {
                queue.removeFirst()
                decisions.drop(head, .rateLimit)
                continue
            }
            // popsim has one of each popup on screen: a head still leaving shows at its `gone`.
            guard world.phase(head) == .hidden else { return }
            onScreen = head
            decisions.show(head)
            if background { quota.recordShow(packages[head], at: world.now) }
            if textToastShown, let duration = world.traits(head).duration {
                decisions.restartTimer(head, ms: duration.plus(Self.textToastExtraMs))
            }
            textToastShown = true
            return
        }
    }
}
