/// The read-only view of a run that a strategy gets with every happening.
///
/// A struct the engine owns and lends (no copy, no dynamic exclusivity checks on the hot path);
/// only the engine mutates it. `traits` holds each popup's hot fields, resolved once.
public struct World: Sendable {
    public internal(set) var scenario: Scenario
    public internal(set) var options: ResolvedOptions
    public internal(set) var now: Int = 0
    public internal(set) var state: [StateValue]
    /// Changes with every change of `state` (and every run): what a strategy that keeps the
    /// verdicts of conditions compares to know they still stand.
    public internal(set) var stateVersion = 0
    public internal(set) var phases: [Phase]
    public internal(set) var traits: [PopupTraits]
    /// Per popup of the run, the file's popup it is an instance of (`InstancePolicy.perRequest`);
    /// empty while the run has made none (every popup is its own).
    public internal(set) var bases: [Int32] = []
    /// Per file's popup, the instances made of it, oldest first (empty until one is made).
    private var instanceIDs: [[PopupID]] = []

    init(scenario: Scenario, options: ResolvedOptions) {
        self.scenario = scenario
        self.options = options
        self.state = scenario.state.initial
        self.phases = Array(repeating: .hidden, count: scenario.popups.count)
        let showMs = options[.showMs] ?? 0, hideMs = options[.hideMs] ?? 0
        // 0 is "none" (only a strategy that allows 0 can have it).
        let duration = options[.duration].flatMap { $0 > 0 ? $0 : nil }
        traits = scenario.popups.map { PopupTraits($0, showMs: showMs, hideMs: hideMs, defaultDuration: duration) }
    }

    /// The world at the start of another run of a scenario of the same popups, in this one's
    /// storage (`Engine.reset`).
    mutating func reset(scenario: Scenario, options: ResolvedOptions) {
        self.scenario = scenario
        self.options = options
        now = 0
        stateVersion &+= 1
        bases.empty()
        instanceIDs.empty()
        if state.count == scenario.state.initial.count {
            for i in state.indices { state[i] = scenario.state.initial[i] }
        } else {
            state = scenario.state.initial
        }
        phases.refill(.hidden, count: scenario.popups.count)
        let showMs = options[.showMs] ?? 0, hideMs = options[.hideMs] ?? 0
        let duration = options[.duration].flatMap { $0 > 0 ? $0 : nil }
        if traits.count == scenario.popups.count {
            for i in traits.indices { traits[i] = PopupTraits(scenario.popups[i], showMs: showMs, hideMs: hideMs, defaultDuration: duration) }
        } else {
            traits = scenario.popups.map { PopupTraits($0, showMs: showMs, hideMs: hideMs, defaultDuration: duration) }
        }
    }

    public func phase(_ p: PopupID) -> Phase { phases[Int(p.index)] }

    /// The file's popup `p` is an instance of (`p` itself for a popup of the file).
    public func base(_ p: PopupID) -> PopupID {
        Int(p.index) < bases.count ? PopupID(Int(bases[Int(p.index)])) : p
    }

    /// The instances of the file's popup `p`, oldest first (not `p` itself).
    public func instances(of p: PopupID) -> [PopupID] {
        Int(p.index) < instanceIDs.count ? instanceIDs[Int(p.index)] : []
    }

    /// A new instance of the file's popup `base`, after every popup of the run: `popup` is its
    /// definition (the base's, under its own name). Its index is returned.
    mutating func addInstance(_ popup: Popup, of base: PopupID) -> PopupID {
        let count = scenario.popups.count
        let q = PopupID(count)
        if bases.isEmpty { bases = (0..<count).map { Int32($0) } }
        bases.append(base.index)
        if instanceIDs.count <= Int(base.index) { instanceIDs += Array(repeating: [], count: Int(base.index) + 1 - instanceIDs.count) }
        instanceIDs[Int(base.index)].append(q)
        scenario.popups.append(popup)
        phases.append(.hidden)
        traits.append(traits[Int(base.index)])
        return q
    }

    public func popup(_ p: PopupID) -> Popup { scenario.popups[Int(p.index)] }

    /// The answer to show number `k` of popup `p` (`Popup.answer(toShow:)`), read in place: a
    /// copy of the popup retained its every string and list.
    public func answer(_ p: PopupID, toShow k: Int) -> Response? { scenario.popups[Int(p.index)].answer(toShow: k) }

    /// The popup's hot fields (no reference counting to read them).
    public func traits(_ p: PopupID) -> PopupTraits { traits[Int(p.index)] }

    /// Whether the popup's `when` holds now (a popup without one always may show).
    public func conditionHolds(_ p: PopupID) -> Bool {
        guard traits[Int(p.index)].hasCondition, let condition = scenario.popups[Int(p.index)].when else { return true }
        return condition.holds(state)
    }
}

/// A popup's fields that the engine and strategies read at every step, resolved once per run.
public struct PopupTraits: Sendable, Equatable {
    /// Present and dismiss animation times: the popup's own, else the option.
    public var showMs: Int
    public var hideMs: Int
    public var priority: Int?
    /// The display time once its timer starts (`nil`: it never hides by itself).
    public var duration: Int?
    public var respondAfter: Int?
    /// Whether its shows are answered show by show (`Popup.respondByShow`).
    public var answersByShow: Bool
    public var switchBehavior: SwitchBehavior
    public var untriggered: UntriggeredBehavior
    public var level: Level?
    public var hasCondition: Bool

    /// `defaultDuration` is the strategy's option `duration`, for popups that set none.
    init(_ popup: Popup, showMs: Int, hideMs: Int, defaultDuration: Int? = nil) {
        self.showMs = popup.showMs ?? showMs
        self.hideMs = popup.hideMs ?? hideMs
        priority = popup.priority
        switch popup.duration {
        case .ms(let ms)?: duration = ms
        case .forever?: duration = nil
        case nil: duration = defaultDuration
        }
        respondAfter = popup.respond?.after
        answersByShow = !popup.respondByShow.isEmpty
        switchBehavior = popup.switchBehavior
        untriggered = popup.untriggered
        level = popup.level
        hasCondition = popup.when != nil
    }
}

extension World {
    /// Whether the popup is presenting or shown (on screen and not leaving).
    public func isVisibleAndStaying(_ p: PopupID) -> Bool {
        let phase = phases[Int(p.index)]
        return phase == .presenting || phase == .shown
    }
}
