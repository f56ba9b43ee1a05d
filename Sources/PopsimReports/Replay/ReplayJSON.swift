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
        members += [("rows", int(r.rows)), ("badRows", int(r.badRows)), ("userErrors", int(r.userErrors)), ("skippedUsers", int(r.skippedUsers)),
                    ("properties", arr(r.properties.map(str))), ("production", JSONValue(.bool(r.hasProduction), at: at))]
        if !r.sweep.isEmpty { members.append(("sweep", arr(r.sweep.map(str)))) }
        var columns = [tally("production", r.tallies.production)]
        for (c, (label, t)) in zip(r.labels, r.tallies.columns).enumerated() {
            var column = tally(label, t)
            if !r.sweep.isEmpty, case .object(var m) = column.kind {
                m.insert(JSONValue.Member(key: "strategy", keyLocation: at, value: str(r.bases[c])), at: 1)
                m.insert(JSONValue.Member(key: "values", keyLocation: at, value: arr(r.sweepValues[c].map(str))), at: 2)
                column.kind = .object(m)
            }
            columns.append(column)
        }
        members.append(("columns", arr(columns)))
        return JSONWriter.write(obj(members)) + "\n"
    }

    static func tally(_ label: String, _ t: ReplayTally) -> JSONValue {
        var drops: [(String, JSONValue)] = []
        for (i, reason) in Reason.allCases.enumerated() where t.drops[i] > 0 { drops.append((reason.rawValue, int(t.drops[i]))) }
        let wait = obj([("p50", opt(t.waits.quantile(50))), ("p90", opt(t.waits.quantile(90))), ("p99", opt(t.waits.quantile(99))),
                        ("max", opt(t.waits.max)), ("sum", int(t.waits.sum)),
                        ("buckets", arr(t.waits.sortedBuckets.map { arr([int($0.index), int($0.count)]) }))])
        let properties = zip(t.failures, t.failing).map { n, first in
            obj([("failures", int(n)), ("first", users(first))])
        }
        return obj([("label", str(label)), ("users", int(t.users)), ("requests", int(t.requests)), ("shown", int(t.shown)),
                    ("drops", obj(drops)), ("lost", int(t.lost)), ("overlaps", int(t.overlaps)), ("pending", int(t.pending)),
                    ("mostOnScreen", int(t.mostOnScreen)), ("wait", wait), ("properties", arr(properties)),
                    ("agreeing", int(t.agreeing)), ("unsettled", int(t.unsettled)), ("unsettledFirst", users(t.unsettledUsers))])
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
                guard let (label, t) = tally(c, properties: i == 0 ? 0 : properties.count) else { return nil }
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
            return report
        }

        func tally(_ v: JSONValue, properties: Int) -> (String, ReplayTally)? {
            guard let m = fields(v), let label = string(m["label"]), let drops = fields(m["drops"]), let wait = fields(m["wait"]),
                  let buckets = array(wait["buckets"]), let sum = integer(wait["sum"]),
                  let props = array(m["properties"]), props.count == properties, let unsettledFirst = users(m["unsettledFirst"]) else { return nil }
            var t = ReplayTally(properties: properties)
            for key in ["users", "requests", "shown", "lost", "overlaps", "pending", "mostOnScreen", "agreeing", "unsettled"] {
                guard let n = integer(m[key]), Self.isCount(n) else { return nil }
                switch key {
                case "users": t.users = n
                case "requests": t.requests = n
                case "shown": t.shown = n
                case "lost": t.lost = n
                case "overlaps": t.overlaps = n
                case "pending": t.pending = n
                case "mostOnScreen": t.mostOnScreen = n
                case "agreeing": t.agreeing = n
                default: t.unsettled = n
                }
            }
            for (key, value) in drops {
                guard let i = Reason.allCases.firstIndex(where: { $0.rawValue == key }), let n = integer(value), Self.isCount(n) else { return nil }
                t.drops[i] = n
            }
            var pairs: [(Int, Int)] = []
            for b in buckets {
                guard let pair = array(b), pair.count == 2, let i = integer(pair[0]), let n = integer(pair[1]), Self.isCount(n) else { return nil }
                pairs.append((i, n))
            }
            let max: Int?
            if case .null? = wait["max"]?.kind { max = nil } else {
                guard let n = integer(wait["max"]) else { return nil }
                max = n
            }
            guard let waits = WaitHistogram(buckets: pairs, max: max, sum: sum) else { return nil }
            t.waits = waits
            for (i, p) in props.enumerated() {
                guard let f = fields(p), let n = integer(f["failures"]), Self.isCount(n), let first = users(f["first"]) else { return nil }
                t.failures[i] = n
                t.failing[i] = first
            }
            t.unsettledUsers = unsettledFirst
            return (label, t)
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
