/// Production's column, counted from a user's rows in one pass (docs/replay.md, "The production
/// column"): what every replay asks of it — requests, shows, waits, the `wait X <= N` and
/// `visible <= N` properties, overlaps and the most on screen — read straight from the rows, as
/// `ProductionRun` writes them as a run's lines (its contract is this pass's); any other property
/// is judged on that run (`Replayer.judge`).
///
/// Why a pass of its own: counting production through a run's timeline (`ReplayTally.add`) made a
/// one-column replay ~25 % slower (a second tally of every user, and the lines written first).
extension ReplayTally {
    /// Adds `user`'s production; leaves its shows in order, with their times and answers, in
    /// `scratch.answers`, and per `wait` property whether it fails in `scratch.waitFails`;
    /// returns the most popups on screen at once.
    mutating func addProduction(_ user: Replayer.User, catalog: [Popup], _ scratch: inout ReplayScratch, groups map: ReplayGroups,
                                into groups: inout [ReplayTally], waitRules: [Replayer.WaitRule]) -> Int {
        let popups = catalog.count
        users += 1
        let grouped = !groups.isEmpty, inGroups = map.popups
        scratch.production.reset(subjects: popups)
        scratch.waitFails.refill(false, count: judgedRequests.count)
        scratch.answers.begin(popups: popups, values: user.values, from: user.rows.first?.time ?? 0)
        for r in user.rows {
            guard let verb = r.entry.verb else { continue }
            let p = r.entry.popupID.map { Int($0.index) } ?? -1
            let known = p >= 0 && p < popups
            scratch.answers.take(verb, popup: p, popups: popups, at: r.time, value: r.entry.value)
            switch verb {
            case .action(.enqueue) where known:
                requests += 1
                scratch.production.open(p, at: r.time, request: true)
                if grouped, p < inGroups {
                    groups[p].requests += 1
                    scratch.requested.note(p)
                }
                for w in waitRules where w.popup == p {
                    judgedRequests[w.property] += 1
                    lateRequests[w.property] += 1
                }
            case .shown where known:
                guard let (since, request) = scratch.production.settleOldest(p) else { continue }
                for w in waitRules where w.popup == p {
                    if r.time &- since > w.limit { scratch.waitFails[w.property] = true } else if request { lateRequests[w.property] -= 1 }
                }
                guard request else { continue }
                shown += 1
                waits.add(r.time &- since)
                if grouped, p < inGroups {
                    groups[p].shown += 1
                    groups[p].waits.add(r.time &- since)
                }
            case .dropped where known:
                scratch.production.settleNewest(p)
            case .action(.clear), .action(.clearQueue):
                for q in 0..<popups { scratch.production.settleAll(q) }
            case .action(.clearUpTo):
                let most = Int(r.entry.popup)
                for q in 0..<popups where (catalog[q].priority ?? Popup.normalPriority) <= most { scratch.production.settleAll(q) }
            case .action(.remove) where known:
                scratch.production.settleAll(p)
            default: continue
            }
        }
        // A `wait` fails too when one of its popup's requests is still open at the end.
        for w in waitRules where !scratch.waitFails[w.property] && scratch.production.isOpen(w.popup) { scratch.waitFails[w.property] = true }
        let (most, overlapping) = scratch.answers.screen.count(catalog, lastRow: user.rows.last?.time ?? 0)
        overlaps += overlapping.count
        if grouped { for p in overlapping where p < inGroups { groups[p].overlaps += 1 } }
        mostOnScreen = Swift.max(mostOnScreen, most)
        if grouped { scratch.requested.countUsers(in: &groups, map, touched: &scratch.touched) }
        return most
    }
}
