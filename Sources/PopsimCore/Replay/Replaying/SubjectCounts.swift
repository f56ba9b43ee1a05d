/// One run's counts per subject (a popup's index), folded into the popup's groups
/// (`ReplayGroups`) when the run is added up: a timeline line costs one increment here, not one
/// per group. Kept from run to run (`ReplayScratch`); only the subjects a run touched are
/// folded and cleared.
struct SubjectCounts {
    private struct Count {
        var requests = 0, shown = 0, lost = 0, overlaps = 0, pending = 0
    }

    private var counts: [Count] = []
    /// The run's drops, each a subject and a `Reason` ordinal (rare: a list, not a count per
    /// subject and reason to clear after every run).
    private var drops: [(subject: Int, reason: Int)] = []
    private var waits: [(subject: Int, wait: Int)] = []
    /// The subjects with a count, each once.
    private var touched: [Int] = []
    private var isTouched: [Bool] = []

    @inline(__always)
    private mutating func touch(_ s: Int) {
        if s >= counts.count {
            counts += Array(repeating: Count(), count: s + 1 - counts.count)
            isTouched += Array(repeating: false, count: s + 1 - isTouched.count)
        }
        if !isTouched[s] {
            isTouched[s] = true
            touched.append(s)
        }
    }

    mutating func request(_ s: Int) { touch(s); counts[s].requests += 1 }
    mutating func drop(_ s: Int, _ reason: Reason) { touch(s); drops.append((s, reason.ordinal)) }
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
        groups.withUnsafeMutableBufferPointer { groups in
            for s in touched {
                let c = counts[s]
                counts[s] = Count()
                isTouched[s] = false
                guard s < map.popups else { continue }
                groups[s].requests += c.requests
                groups[s].shown += c.shown
                groups[s].lost += c.lost
                groups[s].overlaps += c.overlaps
                groups[s].pending += c.pending
                guard c.requests > 0 else { continue }
                map.forEach(of: s) { g in
                    if !requested[g] {
                        requested[g] = true
                        groups[g].users += 1
                    }
                }
            }
            for (s, r) in drops where s < map.popups { groups[s].drops[r] += 1 }
            for (s, wait) in waits where s < map.popups { groups[s].waits.add(wait) }
        }
        touched.empty()
        drops.empty()
        waits.empty()
    }
}
