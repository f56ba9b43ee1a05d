/// SSPPopupCenter: one array whose head is the current popup, shown at the idle pass.
///
/// - Source: seed 002; huanghg/SSPPopupCenter at f0ef665 (`SSPPopupActivityCenter.m`,
///   `NSObject+SSPPopupCenter.m`); semantics/seeds.md §3.
/// - Queue order: appended; `level: high` goes to index 1, right behind the head, when the array
///   holds more than one popup (so among highs the latest goes first); with 0 or 1 it is appended.
///   The head is never displaced. Enqueueing a popup that is already queued is ignored.
/// - Showing: at every idle pass the head's show runs (every frame in the library); popsim logs
///   `show` once per head change, when the head is not already on screen.
/// - Dismissal: a popup's hide first removes the array's head — whichever popup that is — then
///   runs the popup's own hide. The next head shows at the idle pass right after the hide
///   *starts*: a hide animation is not awaited, so the two overlap (`warning … overlap`).
/// - Hazard reproduced: hiding a popup that is not the head removes the head instead
///   (`warning <head> lost`: the center forgets it; on screen it stays there, queued it never shows),
///   and the hidden popup stays queued. SSPPopupCenter has no remove API: popsim's `remove p` is the
///   app calling p's hide to cancel it, the usual way to reach this case.
/// - No priorities, conditions, suspend or clear. Ignores: priority, when, untriggered, switch, key.
struct SSPStrategy: Strategy {
    static let name = "ssp"
    static let summary = "SSPPopupCenter: one array, head shown at the idle pass; high goes right behind the head"
    static let options: [OptionSpec] = [.showMs(default: 0), .hideMs(default: 0), .navMs]
    static let ignoredFields: [PopupField] = [.priority, .when, .untriggered, .switchBehavior, .key]
    static let ignoredActions = ["suspend", "resume", "trigger", "clear"]
    static let buttonActions = ButtonActionTiming.atResponse

    /// `activityList`: element 0 is the current popup.
    private var list: [PopupID] = []

    init(world: World) {}

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            enqueue(p, world)
        case .dismissing(let p, _):
            dequeue(hiding: p, &decisions)
        case .remove(let p):
            let phase = world.phase(p)
            if phase == .presenting || phase == .shown {
                decisions.hide(p, .removed)
            } else if list.first == p {
                decisions.drop(p, .removed)  // the head was cancelled before it could show
            }
            dequeue(hiding: p, &decisions)
        case .idle:
            if let head = list.first, world.phase(head) == .hidden { decisions.show(head) }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] {
        list.filter { world.phase($0) == .hidden }
    }

    private mutating func enqueue(_ p: PopupID, _ world: World) {
        guard !list.contains(p) else { return }
        if list.count > 1 && world.traits(p).level == .high {
            list.insert(p, at: 1)
        } else {
            list.append(p)
        }
    }

    /// `dequeue:`: removes element 0, whether or not it is the popup that hides.
    private mutating func dequeue(hiding p: PopupID, _ decisions: inout Decisions) {
        guard !list.isEmpty else { return }
        let head = list.removeFirst()
        if head != p { decisions.warn(head, .lost) }
    }
}
