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

    // MARK: Reading a report back

    /// A report read back from its JSON, or why it cannot be (`--merge`).
    public struct Problem: Error, Equatable {
        public var message: String
    }

    public static func parse(_ bytes: [UInt8]) -> Result<ReplayReport, Problem> {
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            return .failure(Problem(message: "not JSON (\(error.location): \(error.message))"))
        }
        var reader = Reader()
        guard let report = reader.report(root) else { return .failure(Problem(message: "not a replay report (popsim replay --format json writes one)")) }
        return .success(report)
    }

    struct Reader {
        mutating func report(_ v: JSONValue) -> ReplayReport? {
            guard let m = fields(v), string(m["popsim"]) == "replay", integer(m["version"]) == 1,
                  let trace = fields(m["trace"]), let catalog = fields(m["catalog"]),
                  let properties = array(m["properties"])?.compactMap(string), case .bool(let production)? = m["production"]?.kind,
                  let columns = array(m["columns"]), !columns.isEmpty else { return nil }
            var tallies = ReplayTallies(columns: columns.count - 1, properties: properties.count)
            var labels: [String] = []
            let sweep = array(m["sweep"])?.compactMap(string) ?? []
            var bases: [String] = [], values: [[String]] = []
            for (i, c) in columns.enumerated() {
                guard let (label, t) = tally(c, properties: properties.count) else { return nil }
                if i == 0 { tallies.production = t } else {
                    tallies.columns[i - 1] = t
                    labels.append(label)
                    if !sweep.isEmpty {
                        guard let f = fields(c), let base = string(f["strategy"]), let v = array(f["values"])?.compactMap(string),
                              v.count == sweep.count else { return nil }
                        bases.append(base)
                        values.append(v)
                    }
                }
            }
            guard let groups = self.groups(m["groups"], columns: columns.count, properties: properties.count, into: &tallies) else { return nil }
            guard let file = string(trace["file"]), let bytes = integer(trace["bytes"]), let digest = string(trace["digest"]),
                  let catalogFile = string(catalog["file"]), let catalogDigest = string(catalog["digest"]),
                  let rows = integer(m["rows"]), let bad = integer(m["badRows"]), let userErrors = integer(m["userErrors"]),
                  let skipped = integer(m["skippedUsers"]), [bytes, rows, bad, userErrors, skipped].allSatisfy(Self.isCount) else { return nil }
            let shard: String?
            if let v = m["shard"] {
                guard let s = string(v) else { return nil }
                shard = s
            } else {
                shard = nil
            }
            var report = ReplayReport(trace: file, traceBytes: bytes, traceDigest: digest, catalog: catalogFile, catalogDigest: catalogDigest,
                                      shard: shard, rows: rows, badRows: bad, skippedUsers: skipped, properties: properties, labels: labels,
                                      tallies: tallies, hasProduction: production)
            report.userErrors = userErrors
            report.sweep = sweep
            report.bases = bases
            report.sweepValues = values
            report.groups = groups
            if let v = m["settings"] {
                guard let s = string(v) else { return nil }
                report.settings = s
            }
            if let v = m["unmapped"] {
                guard let f = fields(v) else { return nil }
                var counts: [String: Int] = [:]
                for (name, n) in f {
                    guard let n = count(n), counts[name] == nil else { return nil }
                    counts[name] = n
                }
                report.unmapped = ReplayReport.unmapped(counts)
            }
            if let v = m["triggers"] {
                guard case .bool(let b) = v.kind else { return nil }
                report.hasTriggers = b
            }
            return report
        }

        /// The groups read back (none in a report without them), each with a tally per column
        /// put into `tallies`; nil when one does not fit.
        func groups(_ v: JSONValue?, columns: Int, properties: Int, into tallies: inout ReplayTallies) -> [ReplayGroups.Group]? {
            guard let v else { return [] }
            guard let list = array(v) else { return nil }
            var groups: [ReplayGroups.Group] = []
            tallies.productionGroups = []
            tallies.columnGroups = Array(repeating: [], count: columns - 1)
            for item in list {
                guard let m = fields(item), let by = string(m["by"]).flatMap(ReplayGroups.By.init(rawValue:)), let name = string(m["name"]),
                      let list = array(m["properties"]), case let about = list.compactMap(integer), about.count == list.count,
                      about.allSatisfy({ (0..<properties).contains($0) }),
                      let cs = array(m["columns"]), cs.count == columns else { return nil }
                for (i, c) in cs.enumerated() {
                    guard let (_, t) = tally(c, properties: properties, figures: ReplayFigure.ofGroups) else { return nil }
                    if i == 0 { tallies.productionGroups.append(t) } else { tallies.columnGroups[i - 1].append(t) }
                }
                groups.append(ReplayGroups.Group(by: by, name: name, properties: about))
            }
            return groups
        }

        /// A column read back, figure by figure (`ReplayFigure.all`); nil when any is missing or
        /// out of range.
        func tally(_ v: JSONValue, properties: Int, figures: [ReplayFigure] = ReplayFigure.all) -> (String, ReplayTally)? {
            guard let m = fields(v), let label = string(m["label"]) else { return nil }
            var t = ReplayTally(properties: properties)
            for f in figures {
                switch f.kind {
                case .count(_, let set, _):
                    guard let n = count(m[f.key]) else { return nil }
                    set(&t, n)
                case .shown:
                    guard let n = count(m[f.key]) else { return nil }
                    t.shown = n
                case .drops:
                    guard let drops = fields(m[f.key]) else { return nil }
                    for (key, value) in drops {
                        guard let i = Reason.allCases.firstIndex(where: { $0.rawValue == key }), let n = count(value) else { return nil }
                        t.drops[i] = n
                    }
                case .waits:
                    guard let wait = fields(m[f.key]), let waits = histogram(wait) else { return nil }
                    t.waits = waits
                case .failures:
                    guard let props = array(m[f.key]), props.count == properties else { return nil }
                    for (i, p) in props.enumerated() {
                        guard let o = fields(p), let n = count(o["failures"]), let first = users(o["first"]),
                              let judged = count(o["requests"]), let late = count(o["late"]), late <= judged else { return nil }
                        t.failures[i] = n
                        t.failing[i] = first
                        t.judgedRequests[i] = judged
                        t.lateRequests[i] = late
                    }
                case .agreeing:
                    guard let n = count(m[f.key]), let first = users(m["disagreeingFirst"]),
                          let timed = count(m[ReplayFigure.timingKey]), timed <= n, let untimed = users(m["untimedFirst"]) else { return nil }
                    t.agreeing = n
                    t.disagreeing = first
                    t.timed = timed
                    t.untimed = untimed
                case .waitDistance:
                    continue // read from the waits
                case .unsettled:
                    guard let n = count(m[f.key]), let first = users(m[f.key + "First"]) else { return nil }
                    t.unsettled = n
                    t.unsettledUsers = first
                }
            }
            return (label, t)
        }

        func count(_ v: JSONValue?) -> Int? { integer(v).flatMap { Self.isCount($0) ? $0 : nil } }

        /// The waits' histogram from its buckets, maximum and sum.
        func histogram(_ wait: [String: JSONValue]) -> WaitHistogram? {
            guard let buckets = array(wait["buckets"]), let sum = integer(wait["sum"]) else { return nil }
            var pairs: [(Int, Int)] = []
            for b in buckets {
                guard let pair = array(b), pair.count == 2, let i = integer(pair[0]), let n = count(pair[1]) else { return nil }
                pairs.append((i, n))
            }
            let max: Int?
            if case .null? = wait["max"]?.kind { max = nil } else {
                guard let n = integer(wait["max"]) else { return nil }
                max = n
            }
            return WaitHistogram(buckets: pairs, max: max, sum: sum)
        }

        func users(_ v: JSONValue?) -> [ReplayTally.UserRef]? {
            guard let list = array(v) else { return nil }
            var out: [ReplayTally.UserRef] = []
            for u in list {
                guard let f = fields(u), let id = string(f["user"]), let row = integer(f["row"]) else { return nil }
                out.append(ReplayTally.UserRef(row: row, id: id))
            }
            return out
        }

        /// A count a replay can write: not negative, and small enough that a million shards of it
        /// add up without overflow (2⁴⁴ rows is far past any trace).
        static func isCount(_ n: Int) -> Bool { n >= 0 && n < 1 << 44 }

        func fields(_ v: JSONValue?) -> [String: JSONValue]? {
            guard case .object(let members)? = v?.kind else { return nil }
            var out: [String: JSONValue] = [:]
            for m in members { out[m.key] = m.value }
            return out
        }

        func array(_ v: JSONValue?) -> [JSONValue]? {
            guard case .array(let a)? = v?.kind else { return nil }
            return a
        }

        func string(_ v: JSONValue?) -> String? {
            guard case .string(let s)? = v?.kind else { return nil }
            return s
        }

        func integer(_ v: JSONValue?) -> Int? {
            guard case .number(let n)? = v?.kind else { return nil }
            return n.integer
        }
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
