import PopsimCore

/// The fit as JSON: the best and runners-up as a reader wants them, and every start's finalists
/// with their counts, which is what `fit --merge` reads back to rebuild the whole.
public enum FitJSON {
    typealias J = ReplayJSON

    public static func render(_ r: FitReport) -> String {
        var members: [(String, JSONValue)] = [
            ("popsim", J.str("fit")), ("version", J.int(1)),
            ("trace", J.obj([("file", J.str(r.trace)), ("digest", J.str(r.traceDigest))])),
            ("catalog", J.obj([("file", J.str(r.catalog)), ("digest", J.str(r.catalogDigest))])),
        ]
        if let shard = r.shard { members.append(("shard", J.str(shard))) }
        members += [("settings", J.str(r.settings)), ("users", J.int(r.users)), ("fitUsers", J.int(r.fitUsers)), ("testUsers", J.int(r.testUsers)),
                    ("holdout", J.str(r.holdout)), ("seed", J.str(String(r.seed))), ("budget", J.int(r.budget)),
                    ("evaluations", J.int(r.evaluations)), ("complete", JSONValue(.bool(r.incomplete == nil), at: J.at))]
        if let why = r.incomplete { members.append(("incomplete", J.str(why))) }
        members.append(("best", r.best.map(finalist) ?? JSONValue(.null, at: J.at)))
        members.append(("runnersUp", J.arr(r.runnersUp.map(finalist))))
        members.append(("ties", J.int(r.ties)))
        members.append(("starts", J.arr(r.starts.map(J.str))))
        members.append(("searchedStarts", J.int(r.searchedStarts)))
        if let w = r.whatIf { members.append(("whatIf", whatIf(w, floors: r.floors))) }
        members.append(("results", J.arr(r.results.map { s in
            J.obj([("start", J.int(s.start)), ("evaluations", J.int(s.evaluations)), ("stopped", JSONValue(.bool(s.stopped), at: J.at)),
                   ("finalists", J.arr(s.finalists.map(finalist)))])
        })))
        return JSONWriter.write(J.obj(members)) + "\n"
    }

    /// The what-if: the swept names, the models that fit (the best first) and the floors they
    /// were held to, and per combination of values, per group (the whole first: `by` ""), each
    /// figure's unit, production's value, the best's and the range across the models.
    static func whatIf(_ w: FitWhatIf, floors: (order: Int, timing: Int, users: String)?) -> JSONValue {
        let groups = [nil as Int?] + w.replay.groups.indices.map { Optional($0) }
        let tables = groups.map { g in (g, w.rows(group: g)) }
        var combinations: [JSONValue] = []
        for v in w.combinations.indices {
            let gs = tables.map { g, rows in
                J.obj([("by", J.str(g.map { w.replay.groups[$0].by.rawValue } ?? "")), ("name", J.str(g.map { w.replay.groups[$0].name } ?? "")),
                       ("figures", J.arr(rows.map { row in
                           let range = row.ranges[v]
                           let unit = range.best.unit == .ms ? "ms" : range.best.unit == .tenths ? "tenths of a percent" : "count"
                           return J.obj([("figure", J.str(row.label)), ("unit", J.str(unit)), ("production", J.opt(row.production.value)),
                                         ("best", J.opt(range.best.value)), ("low", J.opt(range.low)), ("high", J.opt(range.high))])
                       }))])
            }
            combinations.append(J.obj([("values", J.arr(w.combinations[v].map(J.str))), ("groups", J.arr(gs))]))
        }
        var members: [(String, JSONValue)] = [("sweep", J.arr(w.sweep.map(J.str))), ("models", J.arr(w.models.map(J.str)))]
        if let floors {
            members.append(("floors", J.obj([("users", J.str(floors.users)), ("order", J.int(floors.order)), ("timing", J.int(floors.timing))])))
        }
        members.append(("combinations", J.arr(combinations)))
        return J.obj(members)
    }

    static func finalist(_ f: FitSearch.Finalist) -> JSONValue {
        J.obj([("label", J.str(f.candidate.label)), ("strategy", J.str(f.candidate.strategy)),
               ("options", J.arr(f.candidate.settings.map { J.arr([J.str($0.name), J.str($0.value)]) })),
               ("fit", score(f.fit)), ("test", score(f.test)), ("wrong", J.arr(f.misses.map(miss)))])
    }

    static func score(_ s: FitScore) -> JSONValue {
        J.obj([("users", J.int(s.users)), ("agreeing", J.int(s.agreeing)), ("timed", J.int(s.timed)), ("matched", J.int(s.matched)),
               ("shows", J.int(s.shows)),
               ("unsettled", J.int(s.unsettled))])
    }

    static func miss(_ m: FitMiss) -> JSONValue {
        func show(_ s: FitMiss.Show?) -> JSONValue { s.map { J.obj([("popup", J.str($0.popup)), ("ms", J.int($0.ms))]) } ?? JSONValue(.null, at: J.at) }
        return J.obj([("user", J.str(m.user.id)), ("row", J.int(m.user.row)), ("show", J.int(m.index)), ("production", show(m.production)),
                      ("model", show(m.model)), ("unsettled", JSONValue(.bool(m.unsettled), at: J.at))])
    }

    // MARK: Reading a report back

    public static func parse(_ bytes: [UInt8]) -> Result<FitReport, ReplayJSON.Problem> {
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            return .failure(ReplayJSON.Problem(message: "not JSON (\(error.location): \(error.message))"))
        }
        guard let report = Reader().report(root) else {
            return .failure(ReplayJSON.Problem(message: "not a fit report (popsim fit --format json writes one)"))
        }
        return .success(report)
    }

    struct Reader {
        let r = ReplayJSON.Reader()

        func report(_ v: JSONValue) -> FitReport? {
            guard let m = r.fields(v), r.string(m["popsim"]) == "fit", r.integer(m["version"]) == 1,
                  let trace = r.fields(m["trace"]), let catalog = r.fields(m["catalog"]),
                  let file = r.string(trace["file"]), let digest = r.string(trace["digest"]),
                  let catalogFile = r.string(catalog["file"]), let catalogDigest = r.string(catalog["digest"]),
                  let settings = r.string(m["settings"]), let users = count(m["users"]), let fitUsers = count(m["fitUsers"]),
                  let testUsers = count(m["testUsers"]), fitUsers <= users, testUsers <= users - fitUsers, let holdout = r.string(m["holdout"]),
                  let seed = r.string(m["seed"]).flatMap({ UInt64($0) }), let budget = count(m["budget"]),
                  let starts = r.array(m["starts"])?.compactMap(r.string), let searched = count(m["searchedStarts"]), searched <= starts.count,
                  let list = r.array(m["results"]) else { return nil }
            var results: [FitSearch.StartResult] = []
            for item in list {
                guard let f = r.fields(item), let start = count(f["start"]), start < starts.count, let evaluations = count(f["evaluations"]),
                      case .bool(let stopped)? = f["stopped"]?.kind, let finalists = r.array(f["finalists"]) else { return nil }
                var out: [FitSearch.Finalist] = []
                for x in finalists {
                    guard let one = finalist(x), one.fit.users <= fitUsers, one.test.users <= testUsers else { return nil }
                    out.append(one)
                }
                results.append(FitSearch.StartResult(start: start, evaluations: evaluations, stopped: stopped, finalists: out))
            }
            var shard: String?
            if let s = m["shard"] {
                guard let text = r.string(s) else { return nil }
                shard = text
            }
            var report = FitReport(trace: file, traceDigest: digest, catalog: catalogFile, catalogDigest: catalogDigest, settings: settings,
                                   shard: shard, users: users, fitUsers: fitUsers, testUsers: testUsers, holdout: holdout, seed: seed,
                                   budget: budget, starts: starts, searchedStarts: searched, results: results)
            if let why = m["incomplete"] {
                guard let text = r.string(why) else { return nil }
                report.incomplete = text
            }
            return report
        }

        func count(_ v: JSONValue?) -> Int? { r.integer(v).flatMap { ReplayJSON.Reader.isCount($0) ? $0 : nil } }

        func finalist(_ v: JSONValue) -> FitSearch.Finalist? {
            guard let f = r.fields(v), let strategy = r.string(f["strategy"]), let options = r.array(f["options"]),
                  let fit = score(f["fit"]), let test = score(f["test"]), let wrong = r.array(f["wrong"]) else { return nil }
            var settings: [FitCandidate.Setting] = []
            for o in options {
                guard let pair = r.array(o)?.compactMap(r.string), pair.count == 2 else { return nil }
                settings.append(FitCandidate.Setting(name: pair[0], value: pair[1]))
            }
            var misses: [FitMiss] = []
            for w in wrong {
                guard let one = miss(w) else { return nil }
                misses.append(one)
            }
            return FitSearch.Finalist(candidate: FitCandidate(strategy: strategy, settings: settings), fit: fit, test: test, misses: misses)
        }

        func score(_ v: JSONValue?) -> FitScore? {
            guard let f = r.fields(v), let users = count(f["users"]), let agreeing = count(f["agreeing"]), let timed = count(f["timed"]),
                  let matched = count(f["matched"]), let shows = count(f["shows"]), let unsettled = count(f["unsettled"]) else { return nil }
            var s = FitScore()
            s.users = users
            s.agreeing = agreeing
            s.timed = timed
            s.matched = matched
            s.shows = shows
            s.unsettled = unsettled
            return s.isConsistent ? s : nil
        }

        func miss(_ v: JSONValue) -> FitMiss? {
            guard let f = r.fields(v), let user = r.string(f["user"]), let row = count(f["row"]), let index = count(f["show"]),
                  case .bool(let unsettled)? = f["unsettled"]?.kind else { return nil }
            func show(_ v: JSONValue?) -> FitMiss.Show?? {
                guard let v else { return nil }
                if case .null = v.kind { return .some(nil) }
                guard let s = r.fields(v), let popup = r.string(s["popup"]), let ms = r.integer(s["ms"]) else { return nil }
                return .some(FitMiss.Show(popup: popup, ms: ms))
            }
            guard let production = show(f["production"]), let model = show(f["model"]) else { return nil }
            return FitMiss(user: ReplayTally.UserRef(row: row, id: user), index: index, production: production, model: model, unsettled: unsettled)
        }
    }

    /// Shards of one fit put together: each start once, the same settings, trace and catalog.
    public static func merge(_ reports: [FitReport], paths: [String]) -> Result<FitReport, ReplayJSON.Problem> {
        guard let first = reports.first else { return .failure(ReplayJSON.Problem(message: "no report")) }
        if let problem = ReplayMerge.shardProblem(reports.map(\.shard), paths: paths) { return .failure(ReplayJSON.Problem(message: problem)) }
        for (i, r) in reports.enumerated() where (r.settings, r.traceDigest, r.catalogDigest, r.starts, r.searchedStarts)
            != (first.settings, first.traceDigest, first.catalogDigest, first.starts, first.searchedStarts) {
            return .failure(ReplayJSON.Problem(message: "\(paths[i]) is of another fit than \(paths[0]) (its trace, catalog or settings differ)"))
        }
        let results = reports.flatMap(\.results)
        guard Set(results.map(\.start)).count == results.count, results.count == first.starts.count || reports.contains(where: { $0.incomplete != nil }) else {
            return .failure(ReplayJSON.Problem(message: "the shards do not hold every start of the fit once"))
        }
        for r in results where r.start < first.starts.count {
            guard r.finalists.allSatisfy({ belongs($0.candidate, to: first.starts[r.start]) }) else {
                return .failure(ReplayJSON.Problem(message: "start \(r.start) (\(first.starts[r.start])) lists a model of another start"))
            }
        }
        var merged = FitReport(trace: first.trace, traceDigest: first.traceDigest, catalog: first.catalog, catalogDigest: first.catalogDigest,
                               settings: first.settings, shard: nil, users: first.users, fitUsers: first.fitUsers, testUsers: first.testUsers,
                               holdout: first.holdout, seed: first.seed, budget: first.budget, starts: first.starts,
                               searchedStarts: first.searchedStarts, results: results)
        merged.incomplete = reports.compactMap(\.incomplete).first
        return .success(merged)
    }

    /// Whether `candidate` is a model of the start labelled `label`: the start's strategy (`fg`;
    /// `exec:…` and `--strategy` starts by their whole label), and each setting the label fixes
    /// (`policy busy=preempt`), a setting left out being the option's default. A forged shard
    /// listing `policy:order=lifo` under its `fg` start would be merged as the fit otherwise.
    static func belongs(_ candidate: FitCandidate, to label: String) -> Bool {
        if candidate.label == label { return true }
        let words = label.split(separator: " ").map(String.init)
        guard let strategy = words.first, candidate.strategy == strategy else { return false }
        for fixed in words.dropFirst() {
            let pair = fixed.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { return false }
            let fallback = StrategyRegistry.entry(named: strategy)?.option(named: pair[0])?.defaultValue.description
            guard (candidate.value(pair[0]) ?? fallback) == pair[1] else { return false }
        }
        return true
    }
}
