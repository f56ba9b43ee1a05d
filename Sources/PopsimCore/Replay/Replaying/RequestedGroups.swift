/// The popups one run requested, each once, so that each of their groups (`ReplayGroups`: the
/// popup's own, its level's, its key's) counts the run's user once. A run's other counts go
/// straight to its popups' groups as the timeline is read (`ReplayTally.add`): they are sums.
/// Before, every count went to a per-run table first and was folded into the groups after the
/// run, ~1,600 instructions a run. Kept from run to run (`ReplayScratch`).
struct RequestedGroups {
    private var popups: [Int] = []
    private var isNoted: [Bool] = []

    /// Popup `p` (an index of the catalog's popups) had a request this run.
    @inline(__always)
    mutating func note(_ p: Int) {
        if p >= isNoted.count { isNoted += Array(repeating: false, count: p + 1 - isNoted.count) }
        guard !isNoted[p] else { return }
        isNoted[p] = true
        popups.append(p)
    }

    /// Adds the run's user to every group of a popup noted, once, marks those groups in
    /// `touched` (sized to `groups`, left for the properties), and forgets the run.
    mutating func countUsers(in groups: inout [ReplayTally], _ map: ReplayGroups, touched: inout [Bool]) {
        touched.refill(false, count: groups.count)
        for p in popups {
            isNoted[p] = false
            map.forEach(of: p) { g in
                if !touched[g] {
                    touched[g] = true
                    groups[g].users += 1
                }
            }
        }
        popups.empty()
    }
}
