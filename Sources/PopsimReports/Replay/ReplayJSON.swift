import PopsimCore

/// The replay as JSON: every figure, and what `--merge` needs to add shards up exactly (the
/// waits' histogram buckets, the first failing users, what identifies the replay).
public enum ReplayJSON {
    static let at = SourceLocation(line: 0, column: 0)

    public static func render(_ r: ReplayReport) -> String {
        var members: [(String, JSONValue)] = [
            ("popsim", str("replay")), ("version", int(1)),
            ("trace", obj([("file", str(r.trace)), ("bytes", int(r.traceBytes)), ("digest", str(r.traceDigest))])),
            ("catalog", obj([("file", str(r.catalog)), ("digest", str(r.catalogDigest))])),
        ]
        if let shard = r.shard { members.append(("shard", str(shard))) }
        if !r.settings.isEmpty { members.append(("settings", str(r.settings))) }
        members += [("rows", int(r.rows)), ("badRows", int(r.badRows)), ("userErrors", int(r.userErrors)), ("skippedUsers", int(r.skippedUsers)),
                    ("properties", arr(r.properties.map(str))), ("production", JSONValue(.bool(r.hasProduction), at: at)),
                    ("triggers", JSONValue(.bool(r.hasTriggers), at: at))]
        if !r.unmapped.isEmpty { members.append(("unmapped", obj(r.unmapped.sorted { $0.event < $1.event }.map { ($0.event, int($0.rows)) }))) }
        if r.unmappedUnlisted > 0 { members.append(("unmappedUnlisted", int(r.unmappedUnlisted))) }
        if !r.sweep.isEmpty { members.append(("sweep", arr(r.sweep.map(str)))) }
        var columns = [tally("production", r.tallies.production)]
        for (c, (label, t)) in zip(r.labels, r.tallies.columns).enumerated() {
            var column = tally(label, t, production: r.hasProduction ? r.tallies.production : nil)
            if !r.sweep.isEmpty, case .object(var m) = column.kind {
                m.insert(JSONValue.Member(key: "strategy", keyLocation: at, value: str(r.bases[c])), at: 1)
                m.insert(JSONValue.Member(key: "values", keyLocation: at, value: arr(r.sweepValues[c].map(str))), at: 2)
                column.kind = .object(m)
            }
            columns.append(column)
        }
        members.append(("columns", arr(columns)))
        var groups: [JSONValue] = []
        for (g, group) in r.groups.enumerated() where g < r.tallies.productionGroups.count {
            let columns = [tally("production", r.tallies.productionGroups[g], figures: ReplayFigure.ofGroups)]
                + zip(r.labels, r.tallies.columnGroups).map {
                    tally($0, $1[g], figures: ReplayFigure.ofGroups, production: r.hasProduction ? r.tallies.productionGroups[g] : nil)
                }
            groups.append(obj([("by", str(group.by.rawValue)), ("name", str(group.name)), ("properties", arr(group.properties.map(int))),
                               ("columns", arr(columns))]))
        }
        members.append(("groups", arr(groups)))
        return JSONWriter.write(obj(members)) + "\n"
    }

    /// A column: its label, then each figure of `figures` under its key; `production`, the
    /// tally its waits' distance is from (none for production itself: no distance is written).
    static func tally(_ label: String, _ t: ReplayTally, figures: [ReplayFigure] = ReplayFigure.all,
                      production: ReplayTally? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("label", str(label))]
        for f in figures {
            switch f.kind {
            case .count(let get, _, _): members.append((f.key, int(get(t))))
            case .shown: members.append((f.key, int(t.shown)))
            case .drops:
                var drops: [(String, JSONValue)] = []
                for (i, reason) in Reason.allCases.enumerated() where t.drops[i] > 0 { drops.append((reason.rawValue, int(t.drops[i]))) }
                members.append((f.key, obj(drops)))
            case .waits:
                members.append((f.key, obj(ReplayFigure.quantiles.map { ("p\($0)", opt(t.waits.quantile($0))) }
                                            + [("max", opt(t.waits.max)), ("sum", int(t.waits.sum)),
                                               ("buckets", arr(t.waits.sortedBuckets.map { arr([int($0.index), int($0.count)]) }))])))
            case .waitDistance:
                if let production { members.append((f.key, opt(WaitHistogram.distance(t.waits, production.waits)))) }
            case .failures:
                members.append((f.key, arr(t.failures.indices.map { i in
                    obj([("failures", int(t.failures[i])), ("first", users(t.failing[i])),
                         ("requests", int(t.judgedRequests[i])), ("late", int(t.lateRequests[i]))])
                })))
            case .agreeing:
                members.append((f.key, int(t.agreeing)))
                members.append(("disagreeingFirst", users(t.disagreeing)))
                members.append((ReplayFigure.timingKey, int(t.timed)))
                members.append(("untimedFirst", users(t.untimed)))
            case .unsettled:
                members.append((f.key, int(t.unsettled)))
                members.append((f.key + "First", users(t.unsettledUsers)))
            }
        }
        return obj(members)
    }

    static func users(_ list: [ReplayTally.UserRef]) -> JSONValue {
        arr(list.map { obj([("user", str($0.id)), ("row", int($0.row))]) })
    }

    // MARK: Building

    static func obj(_ members: [(String, JSONValue)]) -> JSONValue {
        JSONValue(.object(members.map { JSONValue.Member(key: $0.0, keyLocation: at, value: $0.1) }), at: at)
    }

    static func arr(_ items: [JSONValue]) -> JSONValue { JSONValue(.array(items), at: at) }
    static func str(_ s: String) -> JSONValue { JSONValue(.string(s), at: at) }
    static func int(_ n: Int) -> JSONValue { JSONValue(.number(JSONNumber(text: String(n), integer: n, isOutOfRange: false)), at: at) }
    static func opt(_ n: Int?) -> JSONValue { n.map(int) ?? JSONValue(.null, at: at) }
}
