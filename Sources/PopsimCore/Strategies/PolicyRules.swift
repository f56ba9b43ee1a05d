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
    /// Caps, gaps and cooldowns per popup, key or level (`caps`).
    var caps: [ScopedCap]
    var ttlMs: Int
    var popupLimits: Honour
    var suspend: Honour
    var remove: Honour
    var clear: Clear
    var buttons: Buttons
    var instances: InstancePolicy

    enum Anchor: String, CaseIterable, Sendable { case show, shown }

    init(_ o: ResolvedOptions) {
        order = K.order.read(o)
        busy = K.busy.read(o)
        busyFor = K.busyFor.read(o)
        returnTo = K.returnTo.read(o)
        timerOnReturn = K.returnTimer.read(o)
        slots = o[.slots] ?? 1
        overflow = K.overflow.read(o)
        handoff = K.handoff.read(o)
        conditions = K.conditions.read(o)
        failing = K.failing.read(o)
        timerAnchor = K.timerAnchor.read(o) == .show ? .show : .shown
        pause = K.pauseTimers.read(o)
        dedupe = K.dedupe.read(o)
        dedupeBy = K.dedupeBy.read(o)
        minGapMs = K.minGapMs.read(o)
        cooldownMs = K.cooldownMs.read(o)
        rateCount = K.rateCount.read(o)
        rateWindowMs = K.rateWindowMs.read(o)
        lifetimeCap = K.lifetimeCap.read(o)
        dailyCap = K.dailyCap.read(o)
        caps = ScopedCap.parseAll(o.text(K.caps)) ?? []
        ttlMs = K.ttlMs.read(o)
        popupLimits = K.popupLimits.read(o)
        suspend = K.suspend.read(o)
        remove = K.remove.read(o)
        clear = K.clear.read(o)
        buttons = K.buttonActions.read(o)
        instances = K.instances.read(o)
    }

    /// Each knob once: its option's name, default and summary, and how it is read.
    enum K {
        static let order = WordKnob("order", Order.fifo, "waiting order (a popup's priority, unset 100, for priority+…)")
        static let busy = WordKnob("busy", Busy.wait, "an arrival when every slot is taken: wait, replace, preempt (and return), drop")
        static let busyFor = WordKnob("busyFor", BusyFor.all, "who the busy rule is for: all, level high, higher priority, arrival replace")
        static let returnTo = WordKnob("return", Return.first, "a preempted popup goes back first or in its order")
        static let returnTimer = WordKnob("returnTimer", TimerOnReturn.restart, "a returning popup's timer restarts or resumes")
        static let overflow = WordKnob("overflow", Overflow.wait, "slots full and popups waiting: wait, evict the oldest, cut it at once")
        static let handoff = WordKnob("handoff", Handoff.afterGone, "the next popup waits for the hide to end, or cross-fades")
        static let conditions = WordKnob("conditions", Conditions.head, "a popup's when: ignored, checked at the head only, or for any waiting")
        static let failing = WordKnob("failing", Failing.wait, "a popup whose when fails waits or is dropped")
        static let timerAnchor = WordKnob("timerAnchor", Anchor.shown, "the display timer starts at show or at shown")
        static let pauseTimers = WordKnob("pauseTimers", Pause.ignore, "pauseTimers/resumeTimers: ignored, restart, resume, half")
        static let dedupe = WordKnob("dedupe", Dedupe.off, "an arrival already queued (or on screen, visible) is dropped")
        static let dedupeBy = WordKnob("dedupeBy", DedupeBy.popup, "dedupe compares popups, or their dedupeKey")
        static let minGapMs = IntegerKnob("minGapMs", "least time between two shows, ms")
        static let cooldownMs = IntegerKnob("cooldownMs", "least time from a popup gone to the next show, ms")
        static let rateCount = IntegerKnob("rateCount", "shows allowed per rateWindowMs (0: no limit)")
        static let rateWindowMs = IntegerKnob("rateWindowMs", "the sliding window of rateCount, ms")
        static let lifetimeCap = IntegerKnob("lifetimeCap", "shows of one popup in the run (0: no cap; a popup's maxShows wins)")
        static let dailyCap = IntegerKnob("dailyCap", "shows in any 24 h (0: no cap)")
        static let caps = "caps"
        static let ttlMs = IntegerKnob("ttlMs", "a popup waiting longer is dropped, ms (0: never; a popup's ttlMs wins)")
        static let popupLimits = WordKnob("popupLimits", Honour.honour, "a popup's own ttlMs and maxShows honoured or ignored")
        static let suspend = WordKnob("suspend", Honour.honour, "suspend/resume honoured or ignored")
        static let remove = WordKnob("remove", Honour.honour, "remove honoured or ignored")
        static let clear = WordKnob("clear", Clear.all, "what clear empties: all, the queue, the screen, nothing")
        static let buttonActions = WordKnob("buttonActions", Buttons.atResponse, "a button's then runs at the press or when the popup is gone")
        static let instances = WordKnob("instances", InstancePolicy.merge,
                                        "a popup requested while on screen or waiting: the same popup, or a new instance (X#2) per request")
    }

    /// Every knob, in the order `popsim strategies` and docs/policy.md list them.
    static let options: [OptionSpec] = [
        K.order.spec, K.busy.spec, K.busyFor.spec, K.returnTo.spec, K.returnTimer.spec,
        .slots(default: 1, "popups on screen at once"),
        K.overflow.spec, K.handoff.spec, K.conditions.spec, K.failing.spec,
        .duration(default: 0, minimum: 0, "display time of a popup without its own duration, ms (0: none)"),
        K.timerAnchor.spec, K.pauseTimers.spec, K.dedupe.spec, K.dedupeBy.spec,
        K.minGapMs.spec, K.cooldownMs.spec, K.rateCount.spec, K.rateWindowMs.spec, K.lifetimeCap.spec, K.dailyCap.spec,
        OptionSpec(name: K.caps, summary: "caps and pacing per popup, key or level: SCOPE:MAX/WINDOW, SCOPE:gap=D, SCOPE:cooldown=D, ; between (campaign:2/24h; empty: none)",
                   kind: .caps, defaultValue: .text("")),
        K.ttlMs.spec,
        K.popupLimits.spec, K.suspend.spec, K.remove.spec, K.clear.spec, K.buttonActions.spec, K.instances.spec,
        .showMs(default: 0), .hideMs(default: 0), .navMs,
    ]

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
        // A cap scoped to `key:` or `level:` reads the popups' keys or levels: lint must not call
        // them ignored while they decide the run.
        if caps.contains(where: { if case .key = $0.scope { true } else { false } }) { fields.append(.key) }
        if !fields.contains(.level), caps.contains(where: { if case .level = $0.scope { true } else { false } }) { fields.append(.level) }
        var actions: [ActionKind] = []
        if remove == .honour { actions.append(.remove) }
        if clear != .ignore { actions.append(.clear) }
        if suspend == .honour { actions += [.suspend, .resume] }
        if pause != .ignore { actions += [.pauseTimers, .resumeTimers] }
        return (fields, actions)
    }
}

/// A knob whose value is one of `W`'s words: name, default and summary declared together.
struct WordKnob<W: RawRepresentable & CaseIterable & Sendable>: Sendable where W.RawValue == String {
    let name: String
    let fallback: W
    let summary: String

    init(_ name: String, _ fallback: W, _ summary: String) {
        self.name = name
        self.fallback = fallback
        self.summary = summary
    }

    var spec: OptionSpec {
        OptionSpec(name: name, summary: summary, kind: .choice(W.allCases.map(\.rawValue)), defaultValue: .text(fallback.rawValue))
    }

    func read(_ o: ResolvedOptions) -> W { W(rawValue: o.text(name)) ?? fallback }
}

/// A knob whose value is an integer from 0, 0 by default (off).
struct IntegerKnob: Sendable {
    let name: String
    let summary: String

    init(_ name: String, _ summary: String) {
        self.name = name
        self.summary = summary
    }

    var spec: OptionSpec { OptionSpec(name: name, summary: summary, kind: .integer(minimum: 0), defaultValue: .integer(0)) }

    func read(_ o: ResolvedOptions) -> Int { o.integer(name) }
}
