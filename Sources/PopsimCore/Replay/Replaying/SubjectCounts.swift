/// One run's counts per subject (a popup's index), folded into the popup's groups
/// (`ReplayGroups`) when the run is added up: a timeline line costs one increment here, not one
/// per group. Kept from run to run (`ReplayScratch`); only the subjects a run touched are
/// folded and cleared.
struct SubjectCounts {
    private struct Count {
        var requests = 0, shown = 0, lost = 0, overlaps = 0, pending = 0
    }

    private var counts: [Count] = []
    /// Per subject, per `Reason.allCases` index.
    private var drops: [Int] = []
    private var waits: [(subject: Int, wait: Int)] = []
    /// The subjects with a count, each once.
    private var touched: [Int] = []
    private var isTouched: [Bool] = []
    static let reasons = Reason.allCases.count

    @inline(__always)
    private mutating func touch(_ s: Int) {
        if s >= counts.count {
            counts += Array(repeating: Count(), count: s + 1 - counts.count)
            isTouched += Array(repeating: false, count: s + 1 - isTouched.count)
            drops += Array(repeating: 0, count: (s + 1) * Self.reasons - drops.count)
        }
        if !isTouched[s] {
            isTouched[s] = true
            touched.append(s)
        }
    }

    mutating func request(_ s: Int) { touch(s); counts[s].requests += 1 }
    mutating func drop(_ s: Int, _ reason: Reason) { touch(s); drops[s * Self.reasons + reason.ordinal] += 1 }
    mutating func lost(_ s: Int) { touch(s); counts[s].lost += 1 }
    mutating func overlap(_ s: Int) { touch(s); counts[s].overlaps += 1 }
    mutating func pending(_ s: Int) { touch(s); counts[s].pending += 1 }

    mutating func shown(_ s: Int, wait: Int) {
        touch(s)
        counts[s].shown += 1
        waits.append((s, wait))
    }

    /// Adds the run's counts to their popups' groups (a popup's group is its index; levels and
    /// keys get theirs from their popups at the end, `ReplayTallies.completeGroups`), marks in
    /// `requested` every group the run requested a popup of (a user each, counted here), and
    /// clears itself for the next run.
    mutating func fold(into groups: inout [ReplayTally], _ map: ReplayGroups, requested: inout [Bool]) {
        requested.refill(false, count: groups.count)
        for s in touched {
            let c = counts[s]
            if s < map.popups {
                groups[s].requests += c.requests
                groups[s].shown += c.shown
                groups[s].lost += c.lost
                groups[s].overlaps += c.overlaps
                groups[s].pending += c.pending
                for r in 0..<Self.reasons where drops[s * Self.reasons + r] > 0 { groups[s].drops[r] += drops[s * Self.reasons + r] }
                if c.requests > 0 {
                    map.forEach(of: s) { g in
                        if !requested[g] {
                            requested[g] = true
                            groups[g].users += 1
                        }
                    }
                }
            }
            counts[s] = Count()
            for r in 0..<Self.reasons { drops[s * Self.reasons + r] = 0 }
            isTouched[s] = false
        }
        for (s, wait) in waits where s < map.popups { groups[s].waits.add(wait) }
        touched.removeAll(keepingCapacity: true)
        waits.removeAll(keepingCapacity: true)
    }
}
