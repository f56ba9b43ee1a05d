/// The knobs of the `policy` strategy: a scheduler described by its options rather than
/// programmed. Each knob is an option (so a scenario's `options`, `--policy FILE` and `--option`
/// set it the same way) and composes a mechanism some real library has; docs/policy.md names the
/// library behind every value.
///
/// Contract: `PolicyRules(options)` reads resolved options that `PolicyRules.options` validated,
/// so every value is one of the listed words or an integer within its bound.
struct PolicyRules: Sendable {
    enum Order: String, CaseIterable, Sendable { case fifo, lifo, priorityFIFO = "priority+fifo", priorityLIFO = "priority+lifo" }
    enum Busy: String, CaseIterable, Sendable { case wait, replace, preempt, drop }
    enum BusyFor: String, CaseIterable, Sendable { case all, high, higher, arrival }
    enum Return: String, CaseIterable, Sendable { case first, order }
    enum TimerOnReturn: String, CaseIterable, Sendable { case restart, resume }
    enum Overflow: String, CaseIterable, Sendable { case wait, evict, cut }
    enum Handoff: String, CaseIterable, Sendable { case afterGone = "after-gone", crossFade = "cross-fade" }
    enum Conditions: String, CaseIterable, Sendable { case ignore, head, any }
    enum Failing: String, CaseIterable, Sendable { case wait, drop }
    enum Pause: String, CaseIterable, Sendable { case ignore, restart, resume, half }
    enum Dedupe: String, CaseIterable, Sendable { case off, queued, visible }
    enum DedupeBy: String, CaseIterable, Sendable { case popup, key }
    enum Honour: String, CaseIterable, Sendable { case honour, ignore }
    enum Clear: String, CaseIterable, Sendable { case all, queue, screen, ignore }
    enum Buttons: String, CaseIterable, Sendable { case atResponse = "at-response", atGone = "at-gone" }

    var order: Order
    var busy: Busy
    var busyFor: BusyFor
    var returnTo: Return
    var timerOnReturn: TimerOnReturn
    var slots: Int
    var overflow: Overflow
    var handoff: Handoff
    var conditions: Conditions
    var failing: Failing
    var timerAnchor: TimerAnchor
    var pause: Pause
    var dedupe: Dedupe
    var dedupeBy: DedupeBy
    var minGapMs: Int
    var cooldownMs: Int
    var rateCount: Int
    var rateWindowMs: Int
    var lifetimeCap: Int
    var dailyCap: Int
    var ttlMs: Int
    var popupLimits: Honour
    var suspend: Honour
    var remove: Honour
    var clear: Clear
    var buttons: Buttons

    init(_ o: ResolvedOptions) {
        order = Self.word(o, "order", .fifo)
        busy = Self.word(o, "busy", .wait)
        busyFor = Self.word(o, "busyFor", .all)
        returnTo = Self.word(o, "return", .first)
        timerOnReturn = Self.word(o, "returnTimer", .restart)
        slots = o[.slots] ?? 1
        overflow = Self.word(o, "overflow", .wait)
        handoff = Self.word(o, "handoff", .afterGone)
        conditions = Self.word(o, "conditions", .head)
        failing = Self.word(o, "failing", .wait)
        timerAnchor = o.text("timerAnchor") == "show" ? .show : .shown
        pause = Self.word(o, "pauseTimers", .ignore)
        dedupe = Self.word(o, "dedupe", .off)
        dedupeBy = Self.word(o, "dedupeBy", .popup)
        minGapMs = o.integer("minGapMs")
        cooldownMs = o.integer("cooldownMs")
        rateCount = o.integer("rateCount")
        rateWindowMs = o.integer("rateWindowMs")
        lifetimeCap = o.integer("lifetimeCap")
        dailyCap = o.integer("dailyCap")
        ttlMs = o.integer("ttlMs")
        popupLimits = Self.word(o, "popupLimits", .honour)
        suspend = Self.word(o, "suspend", .honour)
        remove = Self.word(o, "remove", .honour)
        clear = Self.word(o, "clear", .all)
        buttons = Self.word(o, "buttonActions", .atResponse)
    }

    private static func word<W: RawRepresentable>(_ o: ResolvedOptions, _ name: String, _ fallback: W) -> W where W.RawValue == String {
        W(rawValue: o.text(name)) ?? fallback
    }

    /// Every knob, in the order `popsim strategies` and docs/policy.md list them.
    static let options: [OptionSpec] = [
        choice("order", Order.self, .fifo, "waiting order (a popup's priority, unset 100, for priority+…)"),
        choice("busy", Busy.self, .wait, "an arrival when every slot is taken: wait, replace, preempt (and return), drop"),
        choice("busyFor", BusyFor.self, .all, "who the busy rule is for: all, level high, higher priority, arrival replace"),
        choice("return", Return.self, .first, "a preempted popup goes back first or in its order"),
        choice("returnTimer", TimerOnReturn.self, .restart, "a returning popup's timer restarts or resumes"),
        .slots(default: 1, "popups on screen at once"),
        choice("overflow", Overflow.self, .wait, "slots full and popups waiting: wait, evict the oldest, cut it at once"),
        choice("handoff", Handoff.self, .afterGone, "the next popup waits for the hide to end, or cross-fades"),
        choice("conditions", Conditions.self, .head, "a popup's when: ignored, checked at the head only, or for any waiting"),
        choice("failing", Failing.self, .wait, "a popup whose when fails waits or is dropped"),
        .duration(default: 0, minimum: 0, "display time of a popup without its own duration, ms (0: none)"),
        OptionSpec(name: "timerAnchor", summary: "the display timer starts at show or at shown", kind: .choice(["show", "shown"]),
                   defaultValue: .text("shown")),
        choice("pauseTimers", Pause.self, .ignore, "pauseTimers/resumeTimers: ignored, restart, resume, half"),
        choice("dedupe", Dedupe.self, .off, "an arrival already queued (or on screen, visible) is dropped"),
        choice("dedupeBy", DedupeBy.self, .popup, "dedupe compares popups, or their dedupeKey"),
        integer("minGapMs", "least time between two shows, ms"),
        integer("cooldownMs", "least time from a popup gone to the next show, ms"),
        integer("rateCount", "shows allowed per rateWindowMs (0: no limit)"),
        integer("rateWindowMs", "the sliding window of rateCount, ms"),
        integer("lifetimeCap", "shows of one popup in the run (0: no cap; a popup's maxShows wins)"),
        integer("dailyCap", "shows in any 24 h (0: no cap)"),
        integer("ttlMs", "a popup waiting longer is dropped, ms (0: never; a popup's ttlMs wins)"),
        choice("popupLimits", Honour.self, .honour, "a popup's own ttlMs and maxShows honoured or ignored"),
        choice("suspend", Honour.self, .honour, "suspend/resume honoured or ignored"),
        choice("remove", Honour.self, .honour, "remove honoured or ignored"),
        choice("clear", Clear.self, .all, "what clear empties: all, the queue, the screen, nothing"),
        choice("buttonActions", Buttons.self, .atResponse, "a button's then runs at the press or when the popup is gone"),
        .showMs(default: 0), .hideMs(default: 0), .navMs,
    ]

    private static func choice<W: RawRepresentable & CaseIterable>(_ name: String, _ type: W.Type, _ value: W,
                                                                   _ summary: String) -> OptionSpec where W.RawValue == String {
        OptionSpec(name: name, summary: summary, kind: .choice(W.allCases.map(\.rawValue)), defaultValue: .text(value.rawValue))
    }

    private static func integer(_ name: String, _ summary: String) -> OptionSpec {
        OptionSpec(name: name, summary: summary, kind: .integer(minimum: 0), defaultValue: .integer(0))
    }

    /// What the knobs read: `when` only if `conditions` does, `dedupeKey` only for `dedupeBy: key`,
    /// the app's actions only where honoured, and so on.
    var modelled: (fields: [PopupField], actions: [ActionKind]) {
        var fields: [PopupField] = []
        if order == .priorityFIFO || order == .priorityLIFO || busyFor == .higher { fields.append(.priority) }
        if conditions != .ignore { fields.append(.when) }
        if busyFor == .high { fields.append(.level) }
        if busyFor == .arrival { fields.append(.arrival) }
        if dedupe != .off && dedupeBy == .key { fields.append(.dedupeKey) }
        if popupLimits == .honour { fields += [.ttlMs, .maxShows] }
        var actions: [ActionKind] = []
        if remove == .honour { actions.append(.remove) }
        if clear != .ignore { actions.append(.clear) }
        if suspend == .honour { actions += [.suspend, .resume] }
        if pause != .ignore { actions += [.pauseTimers, .resumeTimers] }
        return (fields, actions)
    }
}
