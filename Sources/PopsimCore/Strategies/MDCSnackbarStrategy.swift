/// Material Components for Android `SnackbarManager`: newest wins, one pending place.
///
/// - Source: semantics/peers.md §2.1; material-components/material-components-android
///   `SnackbarManager.java` (4211a8a), `BaseTransientBottomBar.java`.
/// - Two records, no list: `current` and `next`. An arrival that is the current snackbar restarts
///   its timeout (if it is fully shown) and merges (`drop … duplicate`); one that is the next
///   merges too. Any other arrival overwrites `next` (the old next: `drop … replaced`, never shown,
///   no callback) and dismisses the current one (`hide … replaced`, unless it is already leaving).
///   With no current snackbar the next one shows at once.
/// - The next snackbar shows when the current one is `gone` (onDismissed after the exit animation):
///   no overlap.
/// - Timeout from `shown` (onShown), `duration` default 1500 (LENGTH_SHORT; LENGTH_LONG is 2750,
///   LENGTH_INDEFINITE is `"forever"`). A re-show restarts it in full.
/// - `pauseTimers` / `resumeTimers` are the user's drag: the timeout stops, and on release it
///   starts again in full.
/// - `remove p` is `dismiss()` on p: the current one hides (`hide … removed`); a pending one is
///   dropped (`drop … removed`) [inferred: the manager's record is cleared].
/// - No priorities, conditions, suspend or clear.
struct MDCSnackbarStrategy: Strategy {
    static let name = "mdc-snackbar"
    static let summary = "Android SnackbarManager: newest wins, one pending place that a newer request overwrites"
    static let options: [OptionSpec] = [.duration(default: 1500), .showMs(default: 250), .hideMs(default: 250), .navMs]
    static let modelledActions: [ActionKind] = [.remove, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse

    private var current: PopupID?
    private var holds: TimerHolds
    private var next: PopupID?

    init(world: World) {
        holds = TimerHolds(.restart, popups: world.scenario.popups.count)
    }

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            arrive(p, world, &decisions)
        case .gone(let p) where current == p:
            current = nil
            showNext(&decisions)
        case .remove(let p):
            if current == p, world.isVisibleAndStaying(p) {
                decisions.hide(p, .removed)
            } else if next == p {
                next = nil
                decisions.drop(p, .removed)
            }
        default:
            holds.handle(happening, on: current.map { [$0] } ?? [], world, &decisions)
        }
    }

    func pending(in world: World) -> [PopupID] {
        next.map { [$0] } ?? []
    }

    private mutating func arrive(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if current == p {
            decisions.drop(p, .duplicate)
            if world.phase(p) == .shown { decisions.restartTimer(p) }
            return
        }
        if next == p {
            decisions.drop(p, .duplicate)
            return
        }
        if let old = next { decisions.drop(old, .replaced) }
        next = p
        guard let c = current else { return showNext(&decisions) }
        if world.isVisibleAndStaying(c) { decisions.hide(c, .replaced) }
    }

    private mutating func showNext(_ decisions: inout Decisions) {
        guard let n = next else { return }
        next = nil
        current = n
        decisions.show(n)
    }
}
