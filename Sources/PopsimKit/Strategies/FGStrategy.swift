/// FGPopupScheduler 0.6.0: one list (the shown popup stays in it), hit tests with conditions,
/// switch behaviours on a priority list, suspend and resume.
///
/// - Source: seed 001; FoneG/FGPopupScheduler tag 0.6.0 (77952ce), `FGPopupList.mm`,
///   `FGPopupPriorityList.m`, `FGPopupScheduler.m`, `FGPopupList+Monitor.m`; semantics/seeds.md §2.
/// - Queue order (option `order`): `fifo` appends, `lifo` pushes to the front (in front of the
///   shown popup too), `priority`/`priority+fifo` and `priority+lifo` insert before the first element
///   of lower priority (equal ones are skipped under the FIFO tie). Duplicates are kept; removal goes
///   by identity and takes every copy (one `drop … removed` each). Priorities default to `normal` (100) and are >= 0.
/// - Attempts (only when not suspended and no popup is shown): synchronously inside every add, at
///   every idle pass while the list is not empty (the run-loop observer), on `trigger`, on `resume`.
///   A hit test scans from the front: the first popup whose `when` holds shows; one that fails with
///   `untriggered: discard` is erased when the scan reaches it (`drop … condition`); `await` stays.
///   The shown popup is never checked again.
/// - Preemption (priority orders only, right after each insertion, even while suspended, without
///   looking at the newcomer's condition): the shown popup S is thrown out when its `switch` is not
///   `await` and the newcomer is strictly more important, or equally important under `priority+lifo`.
///   S is dismissed first (`hide … preempted`); `latent` then re-adds S with its old priority (a list
///   add: its own preemption check, no attempt; `requeue … latent`) only when the newcomer is strictly
///   higher; otherwise S is gone for good (it was shown, so no `drop` line).
/// - Dismissal: a popup with `hideMs` 0 dismisses plainly and leaves the list at once; one with
///   `hideMs` > 0 dismisses only with animation and leaves the list (freeing the slot) at `gone`.
///   The next popup shows at the idle pass after that. Show animations never hold the slot.
/// - Hazards reproduced: a copy of a popup that is still in the list when the popup's dismissal
///   completes is erased with it (`warning … lost`): a `latent` popup whose dismissal is animated,
///   or a popup enqueued twice. `remove` of the shown popup leaves it on screen and frees the slot
///   (`warning … untracked`), so the next one shows on top (`warning … overlap`).
/// - `clear` drops every queued popup and dismisses the shown one (plainly when `hideMs` is 0).
/// - Ignores: key, level.
struct FGStrategy: Strategy {
    static let name = "fg"
    static let summary = "FGPopupScheduler 0.6.0: priority list with conditions, switch behaviours and suspend"
    static let options: [OptionSpec] = [
        OptionSpec(name: "order", summary: "list order and tie rule",
                   kind: .choice(["fifo", "lifo", "priority", "priority+fifo", "priority+lifo"]),
                   defaultValue: .text("priority+fifo"), rejectionNote: rejectionNote),
        .showMs(default: 0), .hideMs(default: 0), .navMs,
    ]
    static let ignoredFields: [PopupField] = [.key, .level] + PopupField.peerFields
    static let buttonActions = ButtonActionTiming.atResponse
    static let ignoredActions = ["pauseTimers", "resumeTimers"]
    /// `FGPopupStrategyPriorityNormal`, what `add:` without a priority uses.
    static let normalPriority = 100

    @Sendable static func rejectionNote(_ value: String) -> String? {
        let v = value.lowercased()
        guard v.contains("fifo") && v.contains("lifo") && !v.contains("priority") else { return nil }
        return "FGPopupScheduler silently shows nothing for FIFO|LIFO"
    }

    static func validate(_ scenario: Scenario) -> [LoadError] {
        scenario.popups.compactMap { popup in
            guard let priority = popup.priority, priority < 0 else { return nil }
            return LoadError(file: scenario.file, location: popup.location(of: .priority),
                             path: JSONPath.root.appending("popups").appending(popup.name).appending("priority"),
                             problem: .expected("an integer >= 0 under fg (FGPopupScheduler's priorities are unsigned)",
                                                got: String(priority)))
        }
    }

    enum Order: Equatable {
        case fifo, lifo
        case priority(lifoTie: Bool)
    }

    /// One `PopupElement` of the list.
    struct Element {
        var id: Int
        var popup: PopupID
        var priority: Int
    }

    let order: Order
    private var list: [Element] = []
    private var nextID = 0
    /// `FirstFirstResponderElement`: the element shown, which stays in the list.
    private var shown: Element?
    private var suspended = false
    /// The monitor's association: set on every add, cleared by the first removal it performs.
    private var associated: [Bool]
    /// Popups whose removal waits for the end of an animated dismissal.
    private var awaitingAnimation: [Bool]
    /// Popups this strategy hid plainly during the current happening: off screen once its decisions
    /// apply (the world shows decisions only after `handle` returns).
    private var hiddenNow: [PopupID] = []

    init(world: World) {
        switch world.options.text("order") {
        case "fifo": order = .fifo
        case "lifo": order = .lifo
        case "priority+lifo": order = .priority(lifoTie: true)
        default: order = .priority(lifoTie: false)
        }
        associated = Array(repeating: false, count: world.scenario.popups.count)
        awaitingAnimation = associated
    }

    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        if !hiddenNow.isEmpty { hiddenNow.removeAll(keepingCapacity: true) }
        switch happening {
        case .enqueued(let p):
            add(p, priority: world.traits(p).priority ?? Self.normalPriority, world, &decisions)
            attempt(world, &decisions)
        case .dismissing(let p, _):
            dismissCalled(p, world, &decisions)
        case .gone(let p) where awaitingAnimation[Int(p.index)]:
            awaitingAnimation[Int(p.index)] = false
            tryRemove(p, &decisions)
            if shown?.popup == p { shown = nil }
        case .idle where !list.isEmpty, .trigger:
            attempt(world, &decisions)
        case .suspend:
            suspended = true
        case .resume:
            suspended = false
            attempt(world, &decisions)
        case .remove(let p):
            remove(p, &decisions)
        case .clear:
            clear(world, &decisions)
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] {
        list.filter { $0.id != shown?.id }.map(\.popup)
    }

    // MARK: - The list

    /// `addPopupView:Priority:` of the list: attach the monitor, insert, then (priority) preempt.
    private mutating func add(_ p: PopupID, priority: Int, _ world: World, _ decisions: inout Decisions) {
        associated[Int(p.index)] = true
        let element = Element(id: nextID, popup: p, priority: priority)
        nextID += 1
        switch order {
        case .fifo:
            list.append(element)
        case .lifo:
            list.insert(element, at: 0)
        case .priority(let lifoTie):
            let index = list.firstIndex { $0.priority < priority || ($0.priority == priority && lifoTie) } ?? list.count
            list.insert(element, at: index)
            preempt(newcomer: priority, lifoTie: lifoTie, world, &decisions)
        }
    }

    private mutating func preempt(newcomer: Int, lifoTie: Bool, _ world: World, _ decisions: inout Decisions) {
        guard let s = shown else { return }
        let behavior = world.traits(s.popup).switchBehavior
        let higher = s.priority < newcomer || (s.priority == newcomer && lifoTie)
        guard behavior != .await, higher else { return }
        let reinsert = behavior == .latent && s.priority < newcomer
        let firstDismissal = isOnScreen(s.popup, world)
        if firstDismissal { hide(s.popup, .preempted, world, &decisions) }
        dismissCalled(s.popup, world, &decisions)
        if reinsert {
            decisions.requeue(s.popup, .latent)
            add(s.popup, priority: s.priority, world, &decisions)
        }
    }

    /// `registerFirstPopupViewResponder` then `execute`: the hit test from the front.
    private mutating func attempt(_ world: World, _ decisions: inout Decisions) {
        guard !suspended, shown == nil else { return }
        var i = 0
        while i < list.count {
            let element = list[i]
            if world.conditionHolds(element.popup) {
                shown = element
                // A popup left on screen by `remove` and enqueued again is shown already.
                if world.phase(element.popup) == .hidden || hiddenNow.contains(element.popup) {
                    decisions.show(element.popup)
                } else {
                    decisions.drop(element.popup, .duplicate)
                }
                return
            }
            if world.traits(element.popup).untriggered == .discard {
                list.remove(at: i)
                decisions.drop(element.popup, .condition)
            } else {
                i += 1
            }
        }
    }

    /// Whether the popup is presenting or shown and not already being dismissed by this strategy.
    private func isOnScreen(_ p: PopupID, _ world: World) -> Bool {
        let phase = world.phase(p)
        return (phase == .presenting || phase == .shown) && !awaitingAnimation[Int(p.index)] && !hiddenNow.contains(p)
    }

    private mutating func hide(_ p: PopupID, _ reason: Reason, _ world: World, _ decisions: inout Decisions) {
        decisions.hide(p, reason)
        if world.traits(p).hideMs == 0 { hiddenNow.append(p) }
    }

    /// The popup's dismiss method ran: plain removes at once, animated at the end of the animation.
    private mutating func dismissCalled(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        if world.traits(p).hideMs == 0 {
            tryRemove(p, &decisions)
        } else {
            awaitingAnimation[Int(p.index)] = true
        }
    }

    /// The monitor's `tryRemovePopupView`: every element of the popup leaves; the slot frees.
    private mutating func tryRemove(_ p: PopupID, _ decisions: inout Decisions) {
        guard associated[Int(p.index)] else { return }
        associated[Int(p.index)] = false
        let shownID = shown?.id
        for element in list where element.popup == p && element.id != shownID {
            decisions.warn(p, .lost)
        }
        list.removeAll { $0.popup == p }
        if shown?.popup == p { shown = nil }
    }

    /// `remove:`: the popup leaves the list; if shown, the slot frees but it stays on screen.
    private mutating func remove(_ p: PopupID, _ decisions: inout Decisions) {
        let shownID = shown?.id
        for element in list where element.popup == p && element.id != shownID { decisions.drop(p, .removed) }
        list.removeAll { $0.popup == p }
        if shown?.popup == p {
            shown = nil
            decisions.warn(p, .untracked)
        }
    }

    /// `removeAllPopupViews`: empty the list, then dismiss the shown popup (plain preferred).
    private mutating func clear(_ world: World, _ decisions: inout Decisions) {
        for element in list where element.id != shown?.id { decisions.drop(element.popup, .cleared) }
        list.removeAll()
        guard let s = shown else { return }
        if isOnScreen(s.popup, world) { hide(s.popup, .cleared, world, &decisions) }
        dismissCalled(s.popup, world, &decisions)
        if world.traits(s.popup).hideMs == 0 { shown = nil }
    }
}
