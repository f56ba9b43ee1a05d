extension Scenario {
    /// Whether the file leaves anything open (`run` and `check` then use the nominal variant).
    public var isUncertain: Bool { !uncertainties.isEmpty }

    /// Which entry of `uncertainties` each uncertain event has, by the event's file index.
    public var uncertaintyOfEvent: [Int: Int] {
        var out: [Int: Int] = [:]
        for (k, u) in uncertainties.enumerated() { out[u.event] = k }
        return out
    }

    /// The plain scenario of one variant: times, orders and omissions applied, events re-sorted
    /// by time (file order among equals), no uncertainty left.
    public func applying(_ variant: Variant) -> Scenario {
        let byEvent = uncertaintyOfEvent
        var out = self
        out.uncertainties = []
        out.events = events.compactMap { event in
            guard let k = byEvent[event.index] else { return event }
            guard variant.present[k] else { return nil }
            var e = event
            if uncertainties[k].window != nil { e.at = variant.times[k] }
            if case .enqueueMany(let list) = e.action, let reordered = variant.batch(k, list) { e.action = .enqueueMany(reordered) }
            return e
        }.sorted { a, b in a.at != b.at ? a.at < b.at : a.index < b.index }
        return out
    }
}
