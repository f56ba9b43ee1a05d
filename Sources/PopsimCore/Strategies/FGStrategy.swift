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
///   `hideMs` > 0 dismisses only with animation, and **every call** of that dismissal (the user's,
///   a preemption's, `clear`'s, even while the popup is already leaving) runs its own completion
///   `hideMs` later, which removes every element of the popup if it was added since the last
///   removal (the monitor's association) and frees the slot. The next popup shows at the idle pass
///   after that. Show animations never hold the slot. A re-called dismissal writes no second `hide`.
/// - Hazards reproduced: a copy of a popup that is still in the list when one of the popup's
///   dismissal completions runs is erased with it (`warning … lost`): a `latent` popup whose
///   dismissal is animated, a popup enqueued twice, a popup enqueued again before a second
///   completion. `clear`'s completion empties the slot whatever is shown by then, so the next
///   popup shows on top of it (`warning … overlap`). `remove` of the shown popup leaves it on
///   screen and frees the slot (`warning … untracked`), so the next one shows on top.
/// - Re-adds: a popup fully on screen whose new element comes up merges (`drop … duplicate`); an
///   element already shown that comes up again (its slot was freed under it) is current again and
///   the scheduler calls its show a second time (`warning … shown-again`: no new request); an
///   element of a popup that is leaving becomes current, its show called during the exit animation
///   (`warning … shown-again`; the popup still leaves), and is erased by the dismissal's completion
///   (`warning … lost`).
/// - `clear` drops every queued popup and dismisses the shown one (plainly when `hideMs` is 0).
struct FGStrategy: Strategy {
    static let name = "fg"
    static let summary = "FGPopupScheduler 0.6.0: priority list with conditions, switch behaviours and suspend"
    static let options: [OptionSpec] = [
        OptionSpec(name: "order", summary: "list order and tie rule",
                   kind: .choice(["fifo", "lifo", "priority", "priority+fifo", "priority+lifo"]),
                   defaultValue: .text("priority+fifo"), rejectionNote: rejectionNote),
        .showMs(default: 0), .hideMs(default: 0), .navMs,
    ]
    static let modelledFields: [PopupField] = [.priority, .when, .untriggered, .switchBehavior]
    static let modelledActions: [ActionKind] = [.suspend, .resume, .trigger, .remove, .clear]
    static let buttonActions = ButtonActionTiming.atResponse
    /// `FGPopupStrategyPriorityNormal`, what `add:` without a priority uses.
    static let normalPriority = Popup.normalPriority

    @Sendable static func rejectionNote(_ value: String) -> String? {
        let v = value.lowercased()
        guard v.contains("fifo") && v.contains("lifo") && !v.contains("priority") else { return nil }
        return "FGPopupScheduler silently shows nothing for FIFO|LIFO"
    }

    static func validate(_ scenario: Scenario) -> [LoadError] {
        scenario.popups.compactMap { popup in
            guard let priority = popup.priority, priority < 0 else { return nil }
            return LoadError(file: scenario.file, location: scenario.fieldLocations.location(of: .priority, in: popup),
                             path: JSONPath.root.appending("popups").appending(popup.name).appending("priority"),
                             problem: .expected("an integer >= 0 under fg (FGPopupScheduler's priorities are unsigned)",
                                                got: String(priority)))
        }
    }

    enum Order: Equatable {
        case fifo, lifo
        case priority(lifoTie: Bool)
    }

    /// The completion of one animated dismissal call.
    struct Completion {
        var popup: PopupID
        /// `clear`'s own completion block, which empties the slot whatever is shown by then.
        var freesSlot: Bool
    }

    let order: Order
    /// The options `order` was read from: a replay's next user comes with the same ones (the
    /// same arrays, so comparing them is a pointer test), and reading the order again by name
    /// cost ~550 instructions a user.
    private let orderOptions: ResolvedOptions
    private var list: FGPopupList
    /// `FirstFirstResponderElement`: the element shown, which stays in the list.
    private var shown: FGPopupList.Element?
    private var suspended = false
    /// The monitor's association: set on every add, cleared by the first removal it performs.
    private var associated: [Bool]
    /// Every animated dismissal call's completion, by timer token.
    private var completions: [Completion] = []
    /// Popups this strategy hid during the current happening, plainly (off screen once its
    /// decisions apply: the world shows decisions only after `handle` returns) or with animation.
    private var hiddenNow: [PopupID] = []
    private var leavingNow: [PopupID] = []
    /// What `clear` took off the list (a buffer kept from call to call).
    private var cleared: [FGPopupList.Element] = []

    static func order(_ options: ResolvedOptions) -> Order {
        switch options.text("order") {
        case "fifo": .fifo
        case "lifo": .lifo
        case "priority+lifo": .priority(lifoTie: true)
        default: .priority(lifoTie: false)
        }
    }

    init(world: World) {
        order = Self.order(world.options)
        orderOptions = world.options
        let placement: FGPopupList.Placement
        switch order {
        case .fifo: placement = .back
        case .lifo: placement = .front
        case .priority(let lifoTie): placement = .priority(lifoTie: lifoTie)
        }
        list = FGPopupList(placement: placement, popups: world.scenario.popups.count)
        associated = Array(repeating: false, count: world.scenario.popups.count)
    }

    /// In place, for a run of the same popups under the same options (a replay's next user).
    mutating func reset(world: World) {
        guard associated.count == world.scenario.popups.count, world.options == orderOptions || Self.order(world.options) == order else {
            return self = FGStrategy(world: world)
        }
        list.reset()
        shown = nil
        suspended = false
        associated.refill(false, count: associated.count)
        completions.empty()
        hiddenNow.empty()
        leavingNow.empty()
        cleared.empty()
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        hiddenNow.empty()
        leavingNow.empty()
        switch happening {
        case .enqueued(let p):
            add(p, priority: world.traits(p).priority ?? Self.normalPriority, world, &decisions)
            attempt(world, &decisions)
        case .dismissing(let p, _):
            dismissCalled(p, world, &decisions)
        case .timer(let token):
            let completion = completions[token]
            if completion.freesSlot { shown = nil }
            tryRemove(completion.popup, &decisions)
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

    /// `idle` only attempts, and an attempt does nothing while suspended, with a popup current or
    /// with nothing in the list.
    var hearsIdle: Bool { !list.isEmpty && !suspended && shown == nil }

    func pending(in world: World) -> [PopupID] {
        list.liveInOrder().filter { !$0.settled }.map(\.popup)
    }

    func heldBack(_ popup: PopupID, in world: World) -> HoldReason? {
        suspended ? .suspended : Self.conditionHold(popup, in: world)
    }

    // MARK: - The list

    /// `addPopupView:Priority:` of the list: attach the monitor, insert, then (priority) preempt.
    private mutating func add(_ p: PopupID, priority: Int, _ world: World, _ decisions: inout Decisions) {
        associated[Int(p.index)] = true
        list.add(p, priority: priority)
        if case .priority(let lifoTie) = order {
            preempt(newcomer: priority, lifoTie: lifoTie, world, &decisions)
        }
    }

    private mutating func preempt(newcomer: Int, lifoTie: Bool, _ world: World, _ decisions: inout Decisions) {
        guard let s = shown else { return }
        let behavior = world.traits(s.popup).switchBehavior
        let higher = s.priority < newcomer || (s.priority == newcomer && lifoTie)
        guard behavior != .await, higher else { return }
        let reinsert = behavior == .latent && s.priority < newcomer
        if isOnScreen(s.popup, world) { hide(s.popup, .preempted, world, &decisions) }
        dismissCalled(s.popup, world, &decisions)
        if reinsert {
            decisions.requeue(s.popup, .latent)
            add(s.popup, priority: s.priority, world, &decisions)
        }
    }

    /// `registerFirstPopupViewResponder` then `execute`: the hit test from the front.
    private mutating func attempt(_ world: World, _ decisions: inout Decisions) {
        guard !suspended, shown == nil else { return }
        let taken = list.scan(world) { world, element in
            if world.conditionHolds(element.popup) { return .take }
            return world.traits(element.popup).untriggered == .discard ? .erase : .pass
        }
        for p in list.erased { decisions.drop(p, .condition) }
        if let element = taken { becomeCurrent(element, world, &decisions) }
    }

    /// `execute` chose the element at `i`: the scheduler calls its show. What that does depends on
    /// where the popup is: off screen it shows; fully on screen the new request merges into it;
    /// leaving, the show does nothing while the exit animation runs (the request stays open until
    /// a dismissal completion erases it); an element already shown is simply current again.
    private mutating func becomeCurrent(_ element: FGPopupList.Element, _ world: World, _ decisions: inout Decisions) {
        var element = element
        let p = element.popup
        let offScreen = world.phase(p) == .hidden || hiddenNow.contains(p)
        if !element.settled {
            if offScreen {
                decisions.show(p)
                element.settled = true
            } else if world.phase(p) != .hiding && !leavingNow.contains(p) {
                decisions.drop(p, .duplicate)
                element.settled = true
            } else {
                // Leaving: the show is called on the view during its exit animation.
                decisions.warn(p, .shownAgain)
            }
            if element.settled { list.settle(element.id) }
        } else if !offScreen {
            // Shown already and current again (a dismissal completion freed the slot under it):
            // the scheduler calls its show a second time.
            decisions.warn(p, .shownAgain)
        }
        shown = element
    }

    /// Whether the popup is presenting or shown and not already being dismissed by this strategy.
    private func isOnScreen(_ p: PopupID, _ world: World) -> Bool {
        world.isVisibleAndStaying(p) && !hiddenNow.contains(p) && !leavingNow.contains(p)
    }

    private mutating func hide(_ p: PopupID, _ reason: Reason, _ world: World, _ decisions: inout Decisions) {
        decisions.hide(p, reason)
        if world.traits(p).hideMs == 0 { hiddenNow.append(p) } else { leavingNow.append(p) }
    }

    /// The popup's dismiss method ran: plain removes at once; an animated call runs its own
    /// completion when its animation ends (`freesSlot`: `clear`'s block, which empties the slot).
    private mutating func dismissCalled(_ p: PopupID, freesSlot: Bool = false, _ world: World, _ decisions: inout Decisions) {
        let hideMs = world.traits(p).hideMs
        if hideMs == 0 {
            tryRemove(p, &decisions)
        } else {
            decisions.startTimer(after: hideMs, token: completions.count)
            completions.append(Completion(popup: p, freesSlot: freesSlot))
        }
    }

    /// The monitor's `tryRemovePopupView`: if the popup was added since the last removal, every
    /// element of it leaves (an unsettled one is `lost`) and the slot frees if it was current.
    private mutating func tryRemove(_ p: PopupID, _ decisions: inout Decisions) {
        guard associated[Int(p.index)] else { return }
        associated[Int(p.index)] = false
        for _ in 0..<list.removeAll(of: p) { decisions.warn(p, .lost) }
        if shown?.popup == p { shown = nil }
    }

    /// `remove:`: the popup leaves the list; if shown, the slot frees but it stays on screen.
    private mutating func remove(_ p: PopupID, _ decisions: inout Decisions) {
        for _ in 0..<list.removeAll(of: p) { decisions.drop(p, .removed) }
        if shown?.popup == p {
            shown = nil
            decisions.warn(p, .untracked)
        }
    }

    /// `removeAllPopupViews`: empty the list, then dismiss the shown popup (plain preferred).
    private mutating func clear(_ world: World, _ decisions: inout Decisions) {
        list.removeAll(into: &cleared)
        for element in cleared where !element.settled { decisions.drop(element.popup, .cleared) }
        guard let s = shown else { return }
        if isOnScreen(s.popup, world) { hide(s.popup, .cleared, world, &decisions) }
        dismissCalled(s.popup, freesSlot: true, world, &decisions)
        if world.traits(s.popup).hideMs == 0 { shown = nil }
    }
}
