/// SwiftEntryKit 2.0.0: one entry on screen; by default every arrival replaces it (`override`),
/// behind a priority gate; `enqueue` arrivals wait in one list.
///
/// - Source: semantics/peers.md §1.1; huri000/SwiftEntryKit 5ad36cc (2.0.0), `EKWindowProvider.swift`,
///   `EKRootViewController.swift`, `EntryCachingHeuristic.swift`.
/// - Arrival `replace` (the library's `.override`, the default): if the entry on screen (one still
///   leaving counts: the root keeps its attributes until the window goes) has a higher priority,
///   the newcomer is dropped (`drop … outranked`). Otherwise `dropQueued: true` empties the list
///   (`drop … cleared`), the entry on screen leaves for good with the pop animation (`hide …
///   replaced`, option `popMs`; 0 is `.overridden`, removed at once) and the newcomer shows at
///   the same instant: the two cross (presents during hide, no overlap).
/// - Arrival `queue` (`.enqueue`): while any entry is on screen, even leaving, it joins the list;
///   otherwise it shows. It never preempts, whatever its priority.
/// - The list (option `heuristic`, read once when the library's singleton is made, so one value
///   per run): `priority` (default) inserts before the first entry of strictly lower priority;
///   `chronological` appends. The head shows when the last entry on screen is `gone`.
/// - Display time from `shown`, `duration` default 2000, `"forever"` for `.infinity`.
/// - `remove p` is `dismiss(.specific)`: queued copies leave (`drop … removed`), p on screen
///   leaves (`hide … removed`); `clear` is `dismiss(.all)`.
/// - One popup cannot be on screen twice in popsim: an arrival of a popup fully on screen merges
///   (`drop … duplicate`); one whose entry is still leaving is a new entry view in the library:
///   `queue` joins the list as usual, `replace` takes the screen and shows at the old view's
///   `gone`. Priorities: integers (unset is `normal`, 100); only their order matters.
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
    static let modelledActions: [ActionKind] = [.remove, .clear]
    static let buttonActions = ButtonActionTiming.atResponse
    static let crossFades = true
    static let normalPriority = 100

    private let chronological: Bool
    private let popMs: Int
    /// The newest entry shown, until it is gone (the root controller's last attributes).
    private var current: PopupID?
    private var list = PriorityFIFO()
    /// The current entry when it is the same popup still leaving: it shows at its `gone`.
    private var waitingForGone: PopupID?

    init(world: World) {
        chronological = world.options.text("heuristic") == "chronological"
        popMs = world.options.integer("popMs")
    }

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            arrive(p, world, &decisions)
        case .gone(let p) where waitingForGone == p:
            waitingForGone = nil
            decisions.show(p)
        case .gone(let p) where current == p:
            current = nil
            while let next = list.popBest() {
                // A queued copy of a popup fully on screen merges into it.
                guard !world.isVisibleAndStaying(next) else {
                    decisions.drop(next, .duplicate)
                    continue
                }
                return show(next, world, &decisions)
            }
        case .remove(let p):
            for q in list.remove(where: { $0 == p }) { decisions.drop(q, .removed) }
            if current == p, world.isVisibleAndStaying(p) { decisions.hide(p, .removed) }
            if waitingForGone == p { cancelWaiting(.removed, &decisions) }
        case .clear:
            emptyList(&decisions)
            cancelWaiting(.cleared, &decisions)
            if let c = current, world.isVisibleAndStaying(c) { decisions.hide(c, .cleared) }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] { (waitingForGone.map { [$0] } ?? []) + list.ranked }

    /// Every waiting entry leaves (`drop … cleared`), in the list's order.
    private mutating func emptyList(_ decisions: inout Decisions) {
        for q in list.ranked { decisions.drop(q, .cleared) }
        list.removeAll()
    }

    private func priority(_ p: PopupID, _ world: World) -> Int { world.traits(p).priority ?? Self.normalPriority }

    private mutating func arrive(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if world.isVisibleAndStaying(p) {
            decisions.drop(p, .duplicate)
        } else if world.popup(p).arrival == .queue {
            if current != nil { insert(p, world) } else { show(p, world, &decisions) }
        } else if let c = current, priority(c, world) > priority(p, world) {
            decisions.drop(p, .outranked)
        } else {
            if world.popup(p).dropQueued { emptyList(&decisions) }
            if let c = current, world.isVisibleAndStaying(c) { decisions.hide(c, .replaced, ms: popMs) }
            show(p, world, &decisions)
        }
    }

    /// `priority`: before the first entry of strictly lower priority (FIFO among equals);
    /// `chronological`: at the end. Both are a priority FIFO (one priority for chronological).
    private mutating func insert(_ p: PopupID, _ world: World) {
        list.append(p, priority: chronological ? 0 : priority(p, world))
    }

    private mutating func show(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        cancelWaiting(.replaced, &decisions)
        current = p
        if world.phase(p) == .hidden { decisions.show(p) } else { waitingForGone = p }
    }

    /// An entry waiting for its own old view's `gone` loses its turn before it showed.
    private mutating func cancelWaiting(_ reason: Reason, _ decisions: inout Decisions) {
        guard let w = waitingForGone else { return }
        waitingForGone = nil
        decisions.drop(w, reason)
    }
}
