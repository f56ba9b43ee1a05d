/// SwiftEntryKit 2.0.0: one entry on screen; by default every arrival replaces it (`override`),
/// behind a priority gate; `enqueue` arrivals wait in one list.
///
/// - Source: semantics/peers.md §1.1; huri000/SwiftEntryKit 5ad36cc (2.0.0), `EKWindowProvider.swift`,
///   `EKRootViewController.swift`, `EntryCachingHeuristic.swift`.
/// - The window holds entry views, newest last; one leaves only by its own exit or pop animation
///   (`EKRootViewController.swift` `configure`, :128-160). A new entry pops the last view even when
///   it is leaving (`removeLastEntry`, :175-184), as `clear` animates it out again: every
///   `animateOut` schedules its own removal (`EKContentView.swift` :367-370), so a leaving view
///   is `gone` at the earlier one (the engine's `endExit(after:)`; at once under `.overridden`). The newest entry displayed is what the
///   root controller's `lastAttributes` and the provider's weak `entryView` describe; both go
///   only when the window goes (the rollback, `EKWindowProvider.swift` :153-158), which happens
///   when the last view in the window is gone and the list is empty.
/// - Arrival `replace` (the library's `.override`, the default): `dropQueued: true` empties the
///   list first (`drop … cleared`; `EKWindowProvider.swift` :96-98 empties it before the gate
///   looks). Then, if the newest entry displayed has a higher priority — even gone, while another
///   view is still leaving — the newcomer is dropped (`drop … outranked`, `canDisplay`, :264-270).
///   Otherwise the window's last view, if it is staying, leaves for good with the pop animation
///   (`hide … replaced`, option `popMs`; 0 is `.overridden`, removed at once) and the newcomer
///   shows at the same instant: the two cross (presents during hide, no overlap).
/// - Arrival `queue` (`.enqueue`): while the newest entry's view is alive it joins the list;
///   otherwise it shows. It never preempts, whatever its priority. The view is alive while it is
///   in the window, and until its entrance would have ended while another view keeps the window
///   (its pending `didAppear` block holds it: `EKContentView.swift` :405-408).
/// - The list (option `heuristic`, read once when the library's singleton is made, so one value
///   per run): `priority` (default) inserts before the first entry of strictly lower priority;
///   `chronological` appends. The head shows when the window's last view is `gone` — a replaced
///   entry still popping keeps it waiting (`didFinishDisplaying`, :315-325) — and shows whatever
///   the gate says (an enqueued entry passes it).
/// - Display time from `shown`, `duration` default 2000, `"forever"` for `.infinity`.
/// - `remove p` is `dismiss(.specific)`, by name: queued entries of p leave (`drop … removed`),
///   and while the newest entry's view is alive and is one of p the window's last view is
///   animated out (`hide … removed`, or again if leaving); `clear` is `dismiss(.all)`: the list
///   empties and the window's last view is animated out. `clearQueue` is `dismiss(.enqueued)`
///   (the list only), `clearScreen` is `dismiss(.displayed)` (the last view only, `hide … cleared`),
///   and `clearUpTo n` is `dismiss(.prioritizedLowerOrEqualTo)`: the waiting entries of priority
///   n or lower leave, and the last view is animated out while the newest entry's view is alive
///   and its priority is n or lower (`EKWindowProvider.swift` :191-214).
/// - Every `display` makes a new entry view and no name is compared (`EKWindowProvider.swift`
///   :141-144): a popup displayed again while on screen, leaving or queued is a new instance
///   (`InstancePolicy.perRequest`, `Saved#2` in the timeline) — it replaces the one on screen,
///   joins the list behind it, or shows at once beside the one still leaving. A user's tap
///   reaches the instance fully shown. Priorities: integers (unset is `normal`, 100); only their
///   order matters.
struct EntryKitStrategy: Strategy {
    static let name = "entrykit"
    static let summary = "SwiftEntryKit: override replaces the shown entry unless it outranks the newcomer; enqueue waits"
    static let options: [OptionSpec] = [
        OptionSpec(name: "heuristic", summary: "order of the waiting list", kind: .choice(["priority", "chronological"]),
                   defaultValue: .text("priority")),
        .duration(default: 2000), .showMs(default: 300), .hideMs(default: 300),
        .animation("popMs", "exit animation of a replaced entry, ms (0: removed at once)", default: 300), .navMs,
    ]
    static let modelledFields: [PopupField] = [.priority, .arrival, .dropQueued]
    static let modelledActions: [ActionKind] = [.remove, .clear, .clearQueue, .clearScreen, .clearUpTo]
    static let buttonActions = ButtonActionTiming.atResponse
    static let crossFades = true
    static let instances = InstancePolicy.perRequest
    static let normalPriority = Popup.normalPriority

    private let chronological: Bool
    private let popMs: Int
    /// The entries whose views are in the window, oldest first (staying or leaving).
    private var window = WindowViews()
    /// The newest entry displayed, until the window goes (the root's `lastAttributes`, the
    /// provider's `entryView`).
    private var newest: PopupID?
    /// Until when blocks with a strong `self` hold the newest entry's view alive out of the
    /// window: its pending `didAppear` (`EKContentView.swift` :405-408, to the entrance's end) and
    /// each `animateOut`'s removal block (:367-370, to the later removal when it left twice).
    private var newestHeldUntil = 0
    private var list = PriorityFIFO()
    /// When each leaving view's removal is due: a view animated out again is removed at the
    /// earlier of its two removals (each `animateOut` schedules its own, EKContentView.swift :367-370).
    private var exitEnds: [PopupID: Int] = [:]

    init(world: World) {
        chronological = world.options.text("heuristic") == "chronological"
        popMs = world.options.integer("popMs")
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            arrive(p, world, &decisions)
        case .dismissing(let p, _):
            exitEnds[p] = world.now &+ world.traits(p).hideMs
        case .gone(let p):
            exitEnds[p] = nil
            gone(p, world, &decisions)
        case .remove(let p):
            for q in list.remove(where: { world.base($0) == p }) { decisions.drop(q, .removed) }
            // While the newest entry's view is alive and is one of p, the window's last view is
            // animated out (`animateOutLastEntry`), staying or already leaving.
            if let n = newest, world.base(n) == p, isDisplaying(world), let last = window.last {
                animateOut(last, .removed, world.traits(last).hideMs, &decisions, world)
            }
        case .clear:
            emptyList(&decisions)
            animateOutLast(world, &decisions)
        case .clearQueue:
            emptyList(&decisions)
        case .clearScreen:
            animateOutLast(world, &decisions)
        case .clearUpTo(let most):
            let lowOrEqual = { (q: PopupID) in (world.traits(q).priority ?? Self.normalPriority) <= most }
            for q in list.remove(where: lowOrEqual) { decisions.drop(q, .cleared) }
            if let n = newest, isDisplaying(world), priority(n, world) <= most { animateOutLast(world, &decisions) }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] { list.ranked }

    /// A view left the window. A window left empty takes the list's head, or goes (the rollback:
    /// no newest entry any more).
    private mutating func gone(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        window.remove(p)
        guard window.isEmpty else { return }
        if let next = list.popBest() { return show(next, world, &decisions) }
        newest = nil
    }

    /// `animateOutLastEntry`: the window's last view leaves (`hide … cleared`), or, already
    /// leaving, leaves again.
    private mutating func animateOutLast(_ world: World, _ decisions: inout Decisions) {
        if let last = window.last { animateOut(last, .cleared, world.traits(last).hideMs, &decisions, world) }
    }

    /// Every waiting entry leaves (`drop … cleared`), in the list's order.
    private mutating func emptyList(_ decisions: inout Decisions) {
        for q in list.ranked { decisions.drop(q, .cleared) }
        list.removeAll()
    }

    private func priority(_ p: PopupID, _ world: World) -> Int { world.traits(p).priority ?? Self.normalPriority }

    /// The newest entry's view is alive: in the window, or held by a pending block
    /// (`newestHeldUntil`) while another view keeps the window.
    private func isDisplaying(_ world: World) -> Bool {
        guard let n = newest else { return false }
        return window.contains(n) || (!window.isEmpty && world.now < newestHeldUntil)
    }

    private mutating func arrive(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        let replaces = world.popup(p).arrival != .queue
        if replaces, world.popup(p).dropQueued { emptyList(&decisions) }
        if !replaces {
            if isDisplaying(world) { insert(p, world) } else { show(p, world, &decisions) }
        } else if let n = newest, priority(n, world) > priority(p, world) {
            decisions.drop(p, .outranked)
        } else {
            show(p, world, &decisions)
        }
    }

    /// `priority`: before the first entry of strictly lower priority (FIFO among equals);
    /// `chronological`: at the end. Both are a priority FIFO (one priority for chronological).
    private mutating func insert(_ p: PopupID, _ world: World) {
        list.append(p, priority: chronological ? 0 : priority(p, world))
    }

    /// A view animated out for `ms`: one staying leaves (`hide … reason`); one already leaving
    /// leaves again, removed `ms` from now if that is sooner than its first removal (no second
    /// `hide` line: it is one exit on screen).
    private mutating func animateOut(_ q: PopupID, _ reason: Reason, _ ms: Int, _ decisions: inout Decisions, _ world: World) {
        if world.isVisibleAndStaying(q) { return leave(q, reason, ms, &decisions, world) }
        guard world.phase(q) == .hiding else { return }
        let end = world.now &+ ms
        if q == newest { newestHeldUntil = max(newestHeldUntil, end) }
        if let due = exitEnds[q], due <= end { return }
        exitEnds[q] = end
        decisions.endExit(q, after: ms)
    }

    private mutating func leave(_ q: PopupID, _ reason: Reason, _ ms: Int, _ decisions: inout Decisions, _ world: World) {
        exitEnds[q] = world.now &+ ms
        decisions.hide(q, reason, ms: ms)
    }

    /// `p` (off screen: every request of an entry on screen is an instance of its own) takes the
    /// window: its last view is popped (`removeLastEntry`, EKRootViewController.swift :175-184,
    /// with the pop animation, or at once under `.overridden`, popMs 0), even one already
    /// leaving; and `p` shows now.
    private mutating func show(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if let last = window.last { animateOut(last, .replaced, popMs, &decisions, world) }
        newest = p
        newestHeldUntil = world.now &+ world.traits(p).showMs
        window.append(p)
        decisions.show(p)
    }
}
