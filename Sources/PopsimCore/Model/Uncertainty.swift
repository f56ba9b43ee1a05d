/// What a scenario leaves open about one script event: when in a window it happens, in which
/// order a batch arrives, whether it happens at all (docs/scenario-format.md, "Uncertain
/// arrivals"). `run` and `check` use the nominal variant: every window at its start, every batch
/// in file order, every maybe-event happening; `explore` tries the others.
public struct Uncertainty: Sendable, Equatable {
    /// The event's index in the file's `events`.
    public var event: Int
    /// `"at": [lo, hi]`: the window, when it is wider than one instant.
    public var window: ClosedRange<Int>?
    /// `"order": "any"` on an enqueue of a list: how many popups the batch holds.
    public var batch: Int?
    /// `"maybe": true`.
    public var maybe: Bool

    public init(event: Int, window: ClosedRange<Int>? = nil, batch: Int? = nil, maybe: Bool = false) {
        self.event = event
        self.window = window
        self.batch = batch
        self.maybe = maybe
    }
}

/// One way the open questions resolve: per `Scenario.uncertainties` entry, the instant, the batch
/// order (a permutation of the file order's indices) and whether the event happens.
public struct Variant: Sendable, Equatable, Hashable {
    public var times: [Int]
    public var orders: [[Int]]
    public var present: [Bool]

    /// Every window at its start, every batch in file order, every event happening.
    public static func nominal(of scenario: Scenario) -> Variant {
        let u = scenario.uncertainties
        return Variant(times: u.map { $0.window?.lowerBound ?? 0 },
                       orders: u.map { Array(0..<($0.batch ?? 0)) },
                       present: u.map { _ in true })
    }
}

extension Scenario {
    /// Whether the file leaves anything open (`run` and `check` then use the nominal variant).
    public var isUncertain: Bool { !uncertainties.isEmpty }

    /// The plain scenario of one variant: times, orders and omissions applied, events re-sorted
    /// by time (file order among equals), no uncertainty left.
    public func applying(_ variant: Variant) -> Scenario {
        var byEvent: [Int: Int] = [:]
        for (k, u) in uncertainties.enumerated() { byEvent[u.event] = k }
        var out = self
        out.uncertainties = []
        out.events = events.compactMap { event in
            guard let k = byEvent[event.index] else { return event }
            guard variant.present[k] else { return nil }
            var e = event
            if uncertainties[k].window != nil { e.at = variant.times[k] }
            if uncertainties[k].batch != nil, case .enqueueMany(let list) = e.action, list.count == variant.orders[k].count {
                e.action = .enqueueMany(variant.orders[k].map { list[$0] })
            }
            return e
        }.enumerated().sorted { a, b in
            a.element.at != b.element.at ? a.element.at < b.element.at : a.element.index < b.element.index
        }.map(\.element)
        return out
    }
}
