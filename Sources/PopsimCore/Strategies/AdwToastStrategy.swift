/// libadwaita `AdwToastOverlay`: one toast at a time; a high-priority toast preempts and the
/// preempted one returns first.
///
/// - Source: semantics/peers.md §2.5; GNOME/libadwaita c68992bd, `adw-toast-overlay.c`,
///   `adw-toast.c`, `adw-toast-widget.c`.
/// - Arrival (`add_toast`): nothing shown → it shows (`showMs`). `level: normal` (the default) is
///   appended. `level: high` postpones the current toast (`hide … preempted`, then
///   `requeue … preempted` to the head of the queue) and shows at once; a high toast preempts a
///   high one too.
/// - Option `toasts`. `reused` (the default: the app keeps one `AdwToast` per popup and adds it
///   again): re-adding the toast on screen restarts its timeout; re-adding a queued one bumps it
///   (high to the head, normal to just behind the high toasts at the front). Both merge (`drop …
///   duplicate`; `adw-toast-overlay.c` :686-698). `new` (`adw_toast_new` on every request, the
///   usual code): every request is a toast of its own, an instance (`Saved#2`) queued behind the
///   first; `remove p` then dismisses every toast of p, the queued ones first.
/// - Next: when the current toast starts to leave, the head shows at once with the replace
///   animation (`replaceMs`, 500) over the leaving one's hide: no overlap (presents during hide).
/// - Timeout from `show` (the widget is created then), `duration` default 5000, `"forever"` for
///   none; a toast that returns gets a new widget, so a fresh full timeout.
/// - One popup cannot be on screen twice in popsim: a toast whose turn comes while it is still
///   leaving from an earlier turn (the library gives it a new widget at once) shows at its `gone`.
/// - `pauseTimers` / `resumeTimers` are hover, focus or a press: the timeout stops, and on release
///   it starts again in full.
/// - `remove p` is `adw_toast_dismiss`; `clear` is `dismiss_all` (the queue empties, then the
///   current toast leaves).
struct AdwToastStrategy: Strategy {
    static let name = "adw-toast"
    static let summary = "libadwaita toast overlay: high priority preempts, the preempted toast returns first with a fresh timer"
    static let options: [OptionSpec] = [
        OptionSpec(name: "toasts", summary: "a popup requested again: reused (the app re-adds its one AdwToast) or new (a new toast)",
                   kind: .choice(["reused", "new"]), defaultValue: .text("reused")),
        .duration(default: 5000), .showMs(default: 300), .hideMs(default: 300),
        .animation("replaceMs", "present animation of a toast that replaces another, ms", default: 500), .navMs,
    ]
    static let modelledFields: [PopupField] = [.level]
    static let modelledActions: [ActionKind] = [.remove, .clear, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse
    static let timerAnchor = TimerAnchor.show
    static let crossFades = true

    private let replaceMs: Int
    private let newToasts: Bool
    private var current: PopupID?
    private var holds: TimerHolds
    /// The current toast when it is still leaving from an earlier turn: it shows at its `gone`.
    private var waitingForGone: PopupID?
    private var queue = Deque<PopupID>()
    /// Which toasts are queued, so an arrival need not search the queue (bursts stay linear).
    private var queued: PopupCounts

    init(world: World) {
        holds = TimerHolds(.restart, popups: world.scenario.popups.count)
        replaceMs = world.options.integer("replaceMs")
        newToasts = world.options.text("toasts") == "new"
        queued = PopupCounts(popups: world.scenario.popups.count)
    }

    var instancePolicy: InstancePolicy { newToasts ? .perRequest : .merge }

    /// `toasts: new`: room for the new toast.
    mutating func instanceAdded(_ instance: PopupID, of base: PopupID, in world: World) {
        holds.addInstance()
        queued.addInstance()
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            add(p, world, &decisions)
        case .dismissing(let p, _) where current == p:
            current = nil
            showHead(world, &decisions)
        case .gone(let p) where waitingForGone == p:
            waitingForGone = nil
            decisions.show(p)
        case .remove(let p) where !world.instances(of: p).isEmpty:
            for q in queue.remove(where: { world.base($0) == p }) {
                queued.remove(q)
                decisions.drop(q, .removed)
            }
            if let c = current, world.base(c) == p { dismiss(c, world, &decisions) }
        case .remove(let p):
            dismiss(p, world, &decisions)
        case .clear:
            for p in queue.elements {
                decisions.drop(p, .cleared)
                queued.remove(p)
            }
            queue.removeAll()
            if let c = current {
                if waitingForGone == c { decisions.drop(c, .cleared) } else { decisions.hide(c, .cleared) }
            }
            current = nil
            waitingForGone = nil
        default:
            holds.handle(happening, on: current.map { [$0] } ?? [], world, &decisions)
        }
    }

    func pending(in world: World) -> [PopupID] { queue.elements }

    /// `adw_toast_dismiss` of one toast: on screen it leaves (or, not shown yet, is dropped) and
    /// the head shows; queued it is dropped.
    private mutating func dismiss(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if current == p {
            if waitingForGone == p {
                waitingForGone = nil
                decisions.drop(p, .removed)
            } else {
                decisions.hide(p, .removed)
            }
            current = nil
            showHead(world, &decisions)
        } else if let i = queuedIndex(p) {
            unqueue(at: i)
            decisions.drop(p, .removed)
        }
    }

    private func isHigh(_ p: PopupID, _ world: World) -> Bool { world.traits(p).level == .high }

    private mutating func add(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if current == p {
            decisions.drop(p, .duplicate)
            if waitingForGone != p { decisions.restartTimer(p) }
        } else if let i = queuedIndex(p) {
            decisions.drop(p, .duplicate)
            unqueue(at: i)
            bump(p, world)
        } else if let c = current, isHigh(p, world) {
            if waitingForGone == c {
                waitingForGone = nil  // not shown yet: back to the head, its request still open
            } else {
                decisions.hide(c, .preempted)
                decisions.requeue(c, .preempted)
            }
            enqueue(c, at: 0)
            present(p, ms: replaceMs, world, &decisions)
        } else if current != nil {
            enqueue(p, at: queue.count)
        } else {
            present(p, ms: nil, world, &decisions)
        }
    }

    /// A re-added queued toast: high goes to the head; normal goes behind the high toasts at the front.
    private mutating func bump(_ p: PopupID, _ world: World) {
        enqueue(p, at: isHigh(p, world) ? 0 : queue.firstIndex { !isHigh($0, world) } ?? queue.count)
    }

    private func queuedIndex(_ p: PopupID) -> Int? { queued.contains(p) ? queue.firstIndex(of: p) : nil }

    private mutating func enqueue(_ p: PopupID, at i: Int) {
        queue.insert(p, at: i)
        queued.add(p)
    }

    @discardableResult
    private mutating func unqueue(at i: Int) -> PopupID {
        let p = queue.remove(at: i)
        queued.remove(p)
        return p
    }

    private mutating func showHead(_ world: World, _ decisions: inout Decisions) {
        guard !queue.isEmpty else { return }
        present(unqueue(at: 0), ms: replaceMs, world, &decisions)
    }

    /// Shows `p`; one still leaving from an earlier turn (the library would give it a new widget)
    /// becomes current and shows at its `gone`, since popsim has one of each popup on screen.
    private mutating func present(_ p: PopupID, ms: Int?, _ world: World, _ decisions: inout Decisions) {
        current = p
        if world.phase(p) == .hidden { decisions.show(p, ms: ms) } else { waitingForGone = p }
    }
}
