import PopsimCore

/// A replay's JSON report read back (`--merge`): every figure checked as it is read.
extension ReplayJSON {
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
                guard counts.count <= UnmappedEvents.listed else { return nil }
                report.unmapped = ReplayReport.unmapped(counts)
            }
            if let v = m["unmappedUnlisted"] {
                guard let n = count(v), report.unmapped.isEmpty else { return nil }
                report.unmappedUnlisted = n
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
            // What a replay counts together stays together (a forged shard with more shown than
            // requested merged as read): a wait per request shown, a user at most once.
            guard t.shown <= t.requests, t.waits.count == t.shown, t.agreeing <= t.users, t.unsettled <= t.users,
                  t.failures.allSatisfy({ $0 <= t.users }) else { return nil }
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

}
