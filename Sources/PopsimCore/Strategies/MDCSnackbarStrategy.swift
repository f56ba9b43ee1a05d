/// Material Components for Android `SnackbarManager`: newest wins, one pending place.
///
/// - Source: semantics/peers.md §2.1; material-components/material-components-android
///   `SnackbarManager.java` (4211a8a), `BaseTransientBottomBar.java`.
/// - Two records, no list: `current` and `next`. An arrival that is the current snackbar restarts
///   its timeout (if it is fully shown) and merges (`drop … duplicate`); one that is the next
///   merges too, and cancels the current one again like any other arrival (a second exit if it
///   is leaving). Any other arrival overwrites `next` (the old next: `drop … replaced`, never shown,
///   no callback) and dismisses the current one (`hide … replaced`, unless it is already leaving).
///   With no current snackbar the next one shows at once.
/// - The next snackbar shows when the current one is `gone` (onDismissed after the exit animation):
///   no overlap. A snackbar hidden in the same pass that showed it leaves at once (`hide` of 0 ms):
///   its view was added INVISIBLE and becomes VISIBLE only after its first layout, and `hideView`
///   of a view that is not VISIBLE calls `onViewHidden` at once (BTBB:697-714, 978-985), so the
///   next one shows at once (oracle finding M1: `show()` twice in one handler).
/// - A second dismissal of a leaving snackbar (another `show()`, or `remove`) starts a second exit
///   animation whose end calls `onDismissed` again (BTBB:978-1001): if the same snackbar is the
///   current one again by then, its new display ends at once (M3), also in the middle of its exit
///   (the engine's `endExit`); the exit so cut short still ends when it would have, and its
///   `onDismissed` then ends a display of the same snackbar the same way.
/// - Timeout from `shown` (onShown), `duration` default 1500 (LENGTH_SHORT; LENGTH_LONG is 2750,
///   LENGTH_INDEFINITE is `"forever"`). A re-show restarts it in full, at once, also while the
///   snackbar still enters (`scheduleTimeoutLocked`, SM:76-84; `onShown` schedules it again, M5).
/// - `pauseTimers` / `resumeTimers` are the user's drag: the timeout stops, and on release it
///   starts again in full. The hold belongs to the display it was made on (the record's `paused`,
///   SM:144-160): once the snackbar is `gone`, a release restarts nothing (M4).
/// - `remove p` is `dismiss()` on p: the current one hides (`hide … removed`) — at once if shown in
///   this pass; while it leaves, a second exit runs (above). The next one is NOT
///   dequeued: `cancelSnackbarLocked` never clears `nextSnackbar` (SM:106-114, 204-213), but its
///   detached view runs an exit animation whose end calls `onDismissed` (BTBB:978-1015), `hideMs`
///   later (oracle finding M2): (a) still next by then, nothing happens and it shows in its turn
///   with its full timeout; (b) current and shown before this pass, it is removed at once
///   (`hide … removed` of 0 ms), or, if it is leaving again by then, its exit ends at once; (c) made
///   current in this very pass, its show still runs with no record: it stays on screen untracked
///   (`warning … untracked`), with no timeout, and the next snackbar shows on top of it; the user's
///   tap on its action (`dismiss`, `press`, `respond`) goes to the manager, which has no record of
///   it: it stays (its button's actions run) — unless it was shown again since and is the next
///   record, whose view the manager then dismisses (it leaves, and shows in its turn); an exit of its own that ends later (a second one,
///   or a detached one) removes its view at once, record or not (`onViewHidden`). A next one whose view is not VISIBLE (shown and
///   hidden in one pass, M1, and not shown since) runs no exit when dismissed (`hideView` calls
///   `onViewHidden` at once): nothing happens, and it shows in its turn.
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
    /// The snackbar shown in this pass (no idle pass since): its view is not VISIBLE yet.
    private var shownThisPass: PopupID?
    /// Snackbars on screen with no record (M2 (c)): their `onShown` schedules no timeout.
    private var untracked: [PopupID] = []
    /// Snackbars whose view is not VISIBLE: shown and hidden in one pass (M1), not shown since.
    /// Dismissed as the next one, such a view calls `onViewHidden` at once: no exit runs.
    private var invisible: [PopupID] = []
    /// Each leaving snackbar's exit animation: when it ends and why it began. An exit cut short
    /// (the view removed by another exit's end, `endExit`) still runs on the detached view, and
    /// its end calls `onDismissed` then.
    private var leaving: [(popup: PopupID, ends: Int, reason: Reason)] = []
    /// Exit animations that end with an `onDismissed` of their own, by timer token: a second exit
    /// of a leaving snackbar, or the detached exit of a dismissed next one.
    private var exits: [(popup: PopupID, reason: Reason, detached: Bool)] = []

    init(world: World) {
        holds = TimerHolds(.restart, popups: world.scenario.popups.count)
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            arrive(p, world, &decisions)
        case .dismissing(let p, let reason):
            startsLeaving(p, ms: world.traits(p).hideMs, reason, world)
        case .gone(let p) where current == p:
            leaving.removeAll { $0.popup == p }
            current = nil
            holds.release(p)
            showNext(world, &decisions)
        case .gone(let p):
            leaving.removeAll { $0.popup == p }
            holds.release(p)
            untracked.removeAll { $0 == p }
            if current == nil, next == p { showNext(world, &decisions) }
        case .remove(let p):
            if current == p, world.isVisibleAndStaying(p) {
                hideCurrent(p, .removed, world, &decisions)
            } else if current == p {
                secondExit(p, .removed, world, &decisions)
            } else if next == p, !invisible.contains(p) {
                exits.append((p, .removed, true))
                decisions.startTimer(after: world.traits(p).hideMs, token: exits.count - 1)
            }
        case .idle:
            shownThisPass = nil
        case .shown(let p) where untracked.contains(p):
            decisions.stopTimer(p)
        case .timer(let token):
            exitEnded(exits[token], world, &decisions)
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
            if world.isVisibleAndStaying(p) { decisions.restartTimer(p) }
            return
        }
        if next == p {
            // Only the duration is updated; the current one is cancelled again all the same (SM:62-74).
            decisions.drop(p, .duplicate)
        } else {
            if let old = next { decisions.drop(old, .replaced) }
            next = p
        }
        guard let c = current else { return showNext(world, &decisions) }
        if world.isVisibleAndStaying(c) { hideCurrent(c, .replaced, world, &decisions) } else { secondExit(c, .replaced, world, &decisions) }
    }

    /// `hideView`: an exit animation, or none for a view not VISIBLE yet (shown in this pass).
    private mutating func hideCurrent(_ c: PopupID, _ reason: Reason, _ world: World, _ decisions: inout Decisions) {
        let notVisible = shownThisPass == c
        if notVisible && !invisible.contains(c) { invisible.append(c) }
        startsLeaving(c, ms: notVisible ? 0 : world.traits(c).hideMs, reason, world)
        decisions.hide(c, reason, ms: notVisible ? 0 : nil)
    }

    private mutating func startsLeaving(_ p: PopupID, ms: Int, _ reason: Reason, _ world: World) {
        leaving.removeAll { $0.popup == p }
        leaving.append((p, world.now.plus(ms), reason))
    }

    /// The action tap (`dispatchDismiss`) asks the manager, which hears only its two records: a
    /// snackbar on screen with none (M2 (c)) stays. Shown again meanwhile, it is the next record:
    /// `cancelSnackbarLocked(next)` dismisses its view, which leaves (and still shows in its turn).
    func ignoresUserDismissal(_ popup: PopupID, in world: World) -> Bool {
        untracked.contains(popup) && next != popup
    }

    /// A dismissal of the current snackbar while it leaves: another exit animation of its length.
    private mutating func secondExit(_ c: PopupID, _ reason: Reason, _ world: World, _ decisions: inout Decisions) {
        guard world.phase(c) == .hiding else { return }
        exits.append((c, reason, false))
        decisions.startTimer(after: world.traits(c).hideMs, token: exits.count - 1)
    }

    /// `onDismissed` at the end of an exit animation: it ends the snackbar's record if it is the
    /// current one by then (a next one is left alone).
    private mutating func exitEnded(_ exit: (popup: PopupID, reason: Reason, detached: Bool), _ world: World,
                                    _ decisions: inout Decisions) {
        let p = exit.popup
        if untracked.contains(p), shownThisPass != p, world.isVisibleAndStaying(p) {
            // `onViewHidden` removes the view from its parent, record or not.
            untracked.removeAll { $0 == p }
            decisions.hide(p, exit.reason, ms: 0)
            return
        }
        guard current == p else { return }
        if world.phase(p) == .hiding {
            // Leaving again (replaced or dismissed since): its view is removed now; that exit
            // animation still ends when it would have, with an `onDismissed` of its own.
            decisions.endExit(p)
            if let cut = leaving.first(where: { $0.popup == p }), cut.ends > world.now {
                exits.append((p, cut.reason, false))
                decisions.startTimer(after: cut.ends - world.now, token: exits.count - 1)
            }
            leaving.removeAll { $0.popup == p }
            return
        }
        guard world.isVisibleAndStaying(p) else { return }
        if exit.detached && shownThisPass == p {
            // Its MSG_SHOW still runs: on screen with no record, no timeout; the next shows on top.
            decisions.warn(p, .untracked)
            untracked.append(p)
            current = nil
            showNext(world, &decisions)
        } else {
            decisions.hide(p, exit.reason, ms: 0)
        }
    }

    /// `showNextSnackbarLocked`: the next record becomes current and its view is shown. A view
    /// still leaving shows at its `gone`; one still on screen with no record (M2 (c)) gets a new
    /// record and its show called again (`drop … duplicate`: the request merges into the view on
    /// screen; `warning … shown-again`): a view fully shown enters again, and its timeout starts
    /// when that ends (`showMs` from now); one still entering, from now.
    private mutating func showNext(_ world: World, _ decisions: inout Decisions) {
        guard let n = next else { return }
        switch world.phase(n) {
        case .hiding:
            return
        case .hidden:
            next = nil
            current = n
            shownThisPass = n
            invisible.removeAll { $0 == n }
            decisions.show(n)
        case .presenting, .shown:
            next = nil
            current = n
            untracked.removeAll { $0 == n }
            // The request merges into the view on screen (the ledger), whose show runs again.
            decisions.drop(n, .duplicate)
            decisions.warn(n, .shownAgain)
            if world.phase(n) == .shown, let duration = world.traits(n).duration {
                // `showView` of a view laid out in its parent animates it in again; `onShown`,
                // `showMs` later, schedules the timeout.
                decisions.restartTimer(n, ms: duration.plus(world.traits(n).showMs))
            } else {
                decisions.restartTimer(n)
            }
        }
    }
}
