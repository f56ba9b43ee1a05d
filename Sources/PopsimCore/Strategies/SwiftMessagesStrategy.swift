/// SwiftMessages: one message on screen, a FIFO queue ordered by priority when the next one is
/// taken, duplicates ignored, a pause between messages that a late arrival skips.
///
/// - Source: semantics/peers.md §1.2; SwiftKickMobile/SwiftMessages c0ff6c6, `SwiftMessages.swift`,
///   `Presenter.swift`.
/// - Arrival: with option `dedupe: on` (the library's `ignoreDuplicates`, default true) a popup
///   whose id (`dedupeKey`, else its name) matches the current message while it is not hiding, or
///   any queued one, is ignored (`drop … duplicate`); a message that is hiding does not count.
///   The check is made when the app asks (`show()`), before any delay: a delayed message joins
///   the queue when its delay ends without a second check (oracle finding D3). Otherwise it is
///   appended and the next message is taken if the slot is free.
/// - Taking the next: only with no current message (one hiding still counts until `gone`); the
///   queue is stably sorted by priority, highest first (unset is 0), and the first shows. Priority
///   never preempts.
/// - The pause: when a message is `gone`, the next is taken `pauseMs` (500) later; but any arrival
///   in between takes the next at once, so the pause only holds back messages already waiting.
/// - `delayMs` or `minMs` make a message `.indefinite(delay:minimum:)`, which joins the queue
///   from a `Task` after its delay, 0 when only `minMs` is set: after the rest of its handler,
///   so a later message of the same `enqueue` list goes first (oracle finding D4).
/// - `delayMs`: the message joins the queue only that long after its enqueue; a `remove` or
///   `clear` meanwhile cancels it (`drop … removed` / `cleared`), and its timer with it: a later
///   enqueue of the same message waits out its own delay (each delay Task holds its own presenter).
///   A delayed message is not a duplicate target (the library checks `_current` and `queue`).
/// - `minMs`: a hide the app asks for (`remove`, `clear`) and the user's (the close button calls
///   `hide()`, the swipe `hide(animator:)`: `dismiss`, `press`, `respond`) waits until the message
///   has been visible that long since its show (`Presenter.delayHide`; oracle finding D1); the
///   button's actions run at the press.
/// - Display time from `shown`, `duration` default 2000 (`.automatic`), `"forever"` for
///   `.forever` and `.indefinite`.
/// - `pauseTimers` / `resumeTimers` are a pan of the current message, modelled on its auto-hide
///   token (`autohideToken`, oracle finding D2): each show gives the token to the new message and
///   its show's end starts an auto-hide timer only if the message holds it; a timer hides its
///   message only if that message holds the token when it fires, and is never cancelled by a pan.
///   A pan takes the token away (`panStarted`); the release gives it back after the spring back
///   (the message's `showMs`: `panEnded`) and starts a new full timer for whichever message is
///   current then (`queueAutoHide`). So a pan that has ended does not postpone the first timer, a
///   pan during the show animation means no timer until the release, and a late give-back arms
///   the next message.
/// - `remove p` is `hide(id:)`: queued messages with p's id leave, the current one with it hides;
///   `clear` is `hideAll()`.
struct SwiftMessagesStrategy: Strategy {
    static let name = "swiftmessages"
    static let summary = "SwiftMessages: FIFO ordered by priority while waiting, duplicates ignored, a pause late arrivals skip"
    static let options: [OptionSpec] = [
        .duration(default: 2000), .showMs(default: 400), .hideMs(default: 200),
        .animation("pauseMs", "pause between one message's gone and the next one's show, ms", default: 500),
        OptionSpec(name: "dedupe", summary: "ignore a message whose id is current or queued", kind: .choice(["on", "off"]),
                   defaultValue: .text("on")),
        .navMs,
    ]
    static let modelledFields: [PopupField] = [.priority, .dedupeKey, .delayMs, .minMs]
    static let modelledActions: [ActionKind] = [.remove, .clear, .pauseTimers, .resumeTimers]
    static let buttonActions = ButtonActionTiming.atResponse
    static let userHidesWaitMinimum = true

    /// What a strategy timer is for.
    private enum Purpose {
        case pauseOver
        /// The delay of one `show` ended (the timer's own token finds its entry in `delayed`).
        case delayOver
        case minimumOver(PopupID, Reason)
        /// An auto-hide Task of one display (`queueAutoHide`): it hides that display if it holds
        /// the token when it fires.
        case autoHide(display: Int)
        /// A pan's spring back ended (`panEnded`): the token back, and a new auto-hide Task.
        case panEnded
    }

    private let pauseMs: Int
    private let dedupe: Bool
    private let ids: [String]
    /// Each popup's dedupe id as a number (popups with the same id share it), and how many queued
    /// messages carry each: the duplicate check is O(1), so a burst stays linear.
    private let idNumbers: [Int]
    private var queuedWithID: [Int]
    private var current: PopupID?
    /// Each show is a display of its own (a new `Presenter`): the current one's number, and the
    /// display holding the auto-hide token, if any.
    private var displays = 0
    private var token: Int?
    /// Whether the engine's display timer of the current display runs (started at `shown` with
    /// the token held, not yet turned into a token-checked timer by a pan), and since when.
    private var engineTimer = false
    private var timerFrom = 0
    /// A pan is under way (a release without one does nothing), and the popup panned.
    private var panned: PopupID?
    private var queue = PriorityFIFO()
    /// Messages waiting out their delay, each with its delay timer's token: a `remove` takes the
    /// entry, so its timer finds nothing (a later `show` of the same message has its own).
    private var delayed: [(popup: PopupID, timer: Int)] = []
    private var shownAt: [Int]
    private var timers: [Purpose] = []

    init(world: World) {
        pauseMs = world.options.integer("pauseMs")
        dedupe = world.options.text("dedupe") == "on"
        ids = world.scenario.popups.map(\.dedupeID)
        let numbers = DedupeNumbers(world.scenario.popups)
        idNumbers = numbers.numbers
        queuedWithID = Array(repeating: 0, count: numbers.distinct)
        shownAt = Array(repeating: 0, count: world.scenario.popups.count)
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            // `show()` checks for a duplicate first, delay or not (SwiftMessages.swift: `enqueue`
            // runs the check, a delayed presenter is appended later unchecked).
            if isDuplicate(p, world) {
                decisions.drop(p, .duplicate)
            } else if let delay = Self.joinDelay(world.popup(p)) {
                delayed.append((p, timers.count))
                start(.delayOver, after: delay, &decisions)
            } else {
                join(p, world, &decisions)
            }
        case .shown(let p) where current == p:
            timerFrom = world.now
            engineTimer = token == displays && world.traits(p).duration != nil
            // Without the token (a pan began during the show animation) the show's end queues no timer.
            if token != displays { decisions.stopTimer(p) }
        case .pauseTimers(let target):
            panStarted(target, world, &decisions)
        case .resumeTimers(let target):
            guard let p = panned, target.includes(p, in: world) else { return }
            panned = nil
            start(.panEnded, after: world.traits(p).showMs, &decisions)
        case .gone(let p) where current == p:
            if token == displays { token = nil }
            current = nil
            if pauseMs > 0 { start(.pauseOver, after: pauseMs, &decisions) } else { takeNext(&decisions, world) }
        case .timer(let token):
            fired(timers[token], token: token, world, &decisions)
        case .remove(let p):
            hide(id: ids[Int(p.index)], .removed, world, &decisions)
        case .clear:
            hide(id: nil, .cleared, world, &decisions)
        default:
            break
        }
    }

    /// How long after `show()` an `.indefinite(delay:minimum:)` message joins the queue: its
    /// `delayMs`, 0 when only `minMs` says it is one (`Presenter.delayShow` is then 0, not nil, and
    /// `enqueue` joins it from a `Task` after a zero sleep: after the rest of the handler, so a
    /// later show of the same handler goes first; oracle finding D4). nil: any other duration,
    /// which joins at once.
    static func joinDelay(_ popup: Popup) -> Int? {
        popup.delayMs ?? (popup.minMs != nil ? 0 : nil)
    }

    /// `panStarted`: the token taken away. A running engine display timer becomes the same
    /// timer checking the token when it fires (the real Task is not cancelled).
    private mutating func panStarted(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        guard let c = current, target.includes(c, in: world), world.isVisibleAndStaying(c) else { return }
        panned = c
        token = nil
        guard engineTimer, let duration = world.traits(c).duration else { return }
        engineTimer = false
        decisions.stopTimer(c)
        start(.autoHide(display: displays), after: max(0, timerFrom + duration - world.now), &decisions)
    }

    func pending(in world: World) -> [PopupID] { delayed.map(\.popup) + queue.elements }

    private mutating func start(_ purpose: Purpose, after ms: Int, _ decisions: inout Decisions) {
        timers.append(purpose)
        decisions.startTimer(after: ms, token: timers.count - 1)
    }

    private mutating func fired(_ purpose: Purpose, token: Int, _ world: World, _ decisions: inout Decisions) {
        switch purpose {
        case .pauseOver:
            takeNext(&decisions, world)
        case .delayOver:
            guard let i = delayed.firstIndex(where: { $0.timer == token }) else { return }
            let p = delayed.remove(at: i).popup
            join(p, world, &decisions)
        case .minimumOver(let p, let reason):
            if current == p, world.isVisibleAndStaying(p) { decisions.hide(p, reason) }
        case .autoHide(let display):
            guard self.token == display, display == displays, let c = current, world.isVisibleAndStaying(c) else { return }
            decisions.hide(c, .duration)
        case .panEnded:
            // `queueAutoHide`: whichever message is current now gets the token and a full timer.
            guard let c = current else { return }
            self.token = displays
            if let duration = world.traits(c).duration { start(.autoHide(display: displays), after: duration, &decisions) }
        }
    }

    /// With `dedupe`: the current message (not while it hides) or a queued one has `p`'s id.
    private func isDuplicate(_ p: PopupID, _ world: World) -> Bool {
        guard dedupe else { return false }
        let id = ids[Int(p.index)]
        let currentMatches = current.map { ids[Int($0.index)] == id && world.isVisibleAndStaying($0) } ?? false
        return currentMatches || queuedWithID[idNumbers[Int(p.index)]] > 0
    }

    /// The message joins the queue (checked already) and the next one is taken if the slot is free.
    private mutating func join(_ p: PopupID, _ world: World, _ decisions: inout Decisions) {
        queue.append(p, priority: world.traits(p).priority ?? 0)
        queuedWithID[idNumbers[Int(p.index)]] += 1
        takeNext(&decisions, world)
    }

    /// `dequeueNext`: with the slot free, the highest priority waiting message shows (FIFO ties).
    private mutating func takeNext(_ decisions: inout Decisions, _ world: World) {
        guard current == nil, let next = queue.popBest() else { return }
        queuedWithID[idNumbers[Int(next.index)]] -= 1
        current = next
        displays += 1
        token = displays
        engineTimer = false
        shownAt[Int(next.index)] = world.now
        decisions.show(next)
    }

    /// `hide(id:)` (or `hideAll()` with no id): delayed and queued matches leave, the current one hides.
    private mutating func hide(id: String?, _ reason: Reason, _ world: World, _ decisions: inout Decisions) {
        func matches(_ q: PopupID) -> Bool { id == nil || ids[Int(q.index)] == id }
        for q in delayed where matches(q.popup) { decisions.drop(q.popup, reason) }
        delayed.removeAll { matches($0.popup) }
        for q in queue.remove(where: matches) {
            decisions.drop(q, reason)
            queuedWithID[idNumbers[Int(q.index)]] -= 1
        }
        guard let c = current, matches(c), world.isVisibleAndStaying(c) else { return }
        let visible = world.now - shownAt[Int(c.index)]
        if let minimum = world.popup(c).minMs, visible < minimum {
            start(.minimumOver(c, reason), after: minimum - visible, &decisions)
        } else {
            decisions.hide(c, reason)
        }
    }
}
