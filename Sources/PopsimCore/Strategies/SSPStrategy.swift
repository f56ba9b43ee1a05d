/// SSPPopupCenter: one array whose head is the current popup, shown at the idle pass.
///
/// - Source: seed 002; huanghg/SSPPopupCenter at f0ef665 (`SSPPopupActivityCenter.m`,
///   `NSObject+SSPPopupCenter.m`); semantics/seeds.md §3.
/// - Queue order: appended; `level: high` goes to index 1, right behind the head, when the array
///   holds more than one popup (so among highs the latest goes first); with 0 or 1 it is appended.
///   The head is never displaced. Enqueueing a popup that is already queued is ignored.
/// - Showing: at every idle pass the head's show runs (every frame in the library); popsim logs
///   `show` once per head change, when the head is not already on screen. A head that is still
///   leaving (re-added, or become the head, during its own exit animation) is not shown until that
///   animation ends; the pass after its `gone` shows it again.
/// - Dismissal: a popup's hide first removes the array's head — whichever popup that is — then
///   runs the popup's own hide. The next head shows at the idle pass right after the hide
///   *starts*: a hide animation is not awaited, so the two overlap (`warning … overlap`).
/// - Hazard reproduced: hiding a popup that is not the head removes the head instead, and the
///   hidden popup stays queued. A head on screen stays there untracked (`warning <head> untracked`);
///   a head not yet shown never shows (`warning <head> lost`).
/// - A request for a popup already in the array is ignored (`drop … duplicate`); one that reaches
///   the head while the same popup is still on screen merges into it (`drop … duplicate`). SSPPopupCenter has no remove API: popsim's `remove p` is the
///   app calling p's hide to cancel it, the usual way to reach this case.
/// - No priorities, conditions, suspend or clear.
struct SSPStrategy: Strategy {
    static let name = "ssp"
    static let summary = "SSPPopupCenter: one array, head shown at the idle pass; high goes right behind the head"
    static let options: [OptionSpec] = [.showMs(default: 0), .hideMs(default: 0), .navMs]
    static let modelledFields: [PopupField] = [.level]
    static let modelledActions: [ActionKind] = [.remove]
    static let buttonActions = ButtonActionTiming.atResponse

    /// `activityList`: element 0 is the current popup. A deque (a high one goes in at index 1,
    /// the front of what follows the head) and a count per popup, so bursts stay linear.
    private var list = Deque<PopupID>()
    private var listed: PopupCounts
    /// Whether the head's request is settled: shown by this strategy, or merged into the same
    /// popup already on screen.
    private var headSettled = false

    init(world: World) { listed = PopupCounts(popups: world.scenario.popups.count) }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            enqueue(p, world, &decisions)
        case .dismissing(let p, _):
            dequeue(hiding: p, world, &decisions)
        case .remove(let p):
            let phase = world.phase(p)
            if phase == .presenting || phase == .shown {
                decisions.hide(p, .removed)
            } else if list.first == p && !headSettled {
                decisions.drop(p, .removed)  // the head was cancelled before it could show
                headSettled = true
            }
            dequeue(hiding: p, world, &decisions)
        case .idle:
            guard let head = list.first, !headSettled else { return }
            // The show of a view still leaving has no effect until it is gone: try again then.
            let phase = world.phase(head)
            if phase == .hiding { return }
            headSettled = true
            // Showing a view already on screen does nothing: the request merges into it.
            if phase == .hidden { decisions.show(head) } else { decisions.drop(head, .duplicate) }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] {
        Array(list.elements.dropFirst(headSettled ? 1 : 0))
    }

    private mutating func enqueue(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        guard !listed.contains(p) else {
            decisions.drop(p, .duplicate)
            return
        }
        listed.add(p)
        if list.count > 1 && world.traits(p).level == .high {
            list.insert(p, at: 1)
        } else {
            list.append(p)
        }
    }

    /// `dequeue:`: removes element 0, whether or not it is the popup that hides.
    private mutating func dequeue(hiding p: PopupID, _ world: World, _ decisions: inout Decisions) {
        guard let head = list.popFirst() else { return }
        listed.remove(head)
        defer { headSettled = false }
        if headSettled {
            if head != p { decisions.warn(head, .untracked) }
        } else if head == p && world.phase(p) != .hidden {
            decisions.drop(p, .duplicate)
        } else {
            decisions.warn(head, .lost)
        }
    }
}
