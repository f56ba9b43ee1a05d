import PopsimCore
import PopsimReports

/// The same bytes through the surfaces a scenario file does not reach: a policy file, a plug-in's
/// handshake and reply lines, a replay trace (CSV and JSON Lines, read in two chunks) run and
/// rendered in every format, and a replay report read back for `--merge`.
///
/// Contract: returns the findings (an internal error, a report that does not read back as it was
/// written); bad input is not one.
extension Exercise {
    /// A small catalog every surface runs against: three popups, a state variable, properties.
    static let catalog: Scenario? = try? Pipeline.load(Array("""
        {"popsim": 1, "strategy": "fg", "state": {"screen": "home", "n": 0},
         "popups": {"a": {"priority": 5, "duration": 1000, "then": {"ok": [{"enqueue": "c"}]}},
                    "b": {"duration": 500, "minMs": 200}, "c": {"when": "screen == 'home'", "delayMs": 100}},
         "expect": ["wait a <= 2000", "visible <= 1"]}
        """.utf8), file: "catalog.json")

    /// The columns every trace runs under.
    static let columns: [Replayer.Column] = ["fg", "policy", "sonner"].compactMap { name in
        guard let catalog, let configuration = try? RunConfiguration.resolve(catalog, strategy: name, overrides: []) else { return nil }
        return Replayer.Column(label: name, configuration: configuration, catalog: catalog)
    }

    public static func surfaces(_ bytes: [UInt8]) -> [String] {
        guard let catalog else { return ["the fuzz catalog does not load"] }
        var findings: [String] = []
        let limits = RunLimits(maxStepsPerInstant: 2_000, maxSteps: 20_000, checkInvariants: true)
        // A policy file: its rules, then a run of the catalog under them.
        if case .success(let settings) = ScenarioLoader.loadPolicy(bytes, file: "fuzz-policy.json", catalog: StrategyRegistry.catalog) {
            var withEvents = catalog
            withEvents.events = [ScenarioEvent(at: 0, action: .enqueueMany([PopupID(0), PopupID(1), PopupID(2)]), index: 0,
                                               location: SourceLocation(line: 1, column: 1))]
            do {
                _ = try Pipeline.run(withEvents, strategy: ScenarioLoader.policyStrategy, limits: limits,
                                     strategies: StrategySet(extra: [.policy(file: "fuzz-policy.json", settings: settings)]))
            } catch where error.isInternal {
                findings.append("policy: \(error)")
            } catch {}
        }
        // A plug-in's lines.
        _ = try? PluginHello.parse(bytes)
        _ = try? PluginCodec(catalog).reply(bytes)
        // A trace, both formats, as popsim's words and through a mapping of an export's names.
        for format in TraceFormats.all {
            findings += replay(bytes, format: format, catalog: catalog, limits: limits)
            findings += replay(bytes, format: format, catalog: catalog, limits: limits, mapping: Self.mapping)
        }
        // A mapping file, then a trace read through it.
        if case .success(let layout) = TraceMappingFile.load(bytes, file: "fuzz-mapping.json", catalog: catalog, into: TraceLayout(format: .csv)) {
            findings += replay(Array("user,time,action,popup,value\nu,0,enqueue,a,\nu,5,shown,a,\n".utf8), format: .csv, catalog: catalog,
                               limits: limits, mapping: layout.mapping)
        }
        // Reports given to --merge (replay's and explore's), and a sweep's and caps' texts.
        if case .success(let report) = ReplayJSON.parse(bytes) {
            _ = render(report)
            _ = ReplayMerge.merge([report, report], paths: ["a.json", "b.json"])
        }
        if let root = try? JSONReader.parse(bytes), let report = ExploreReport(json: root) { _ = try? ExploreReport.merging([report, report]) }
        let text = String(decoding: bytes, as: UTF8.self)
        if case .success(let sweep) = Sweep.parse(text.split(separator: "\n").map(String.init)), let policy = StrategyRegistry.entry(named: "policy") {
            _ = sweep.combinations.prefix(50).map { sweep.overrides($0, under: policy) }
        }
        for name in ["caps", "caps+"] {
            _ = try? RunConfiguration.resolve(catalog, strategy: "policy", overrides: [OptionOverride(name: name, value: text)])
        }
        return findings
    }

    /// An export's names for the fuzz traces read through a mapping.
    static let mapping: TraceMapping = {
        var m = TraceMapping()
        m.events = [("req", .verb(.action(.enqueue))), ("view", .setVariable("screen")), ("bg", .verbWith(.action(.set), value: "n=1"))]
        m.popups = [("alpha", "a")]
        m.timeZoneMinutes = 60
        return m
    }()

    static func replay(_ bytes: [UInt8], format: TraceFormat, catalog: Scenario, limits: RunLimits, mapping: TraceMapping = TraceMapping()) -> [String] {
        var layout = TraceLayout(format: format)
        layout.mapping = mapping
        let decoder = TraceRowDecoder(file: "fuzz-trace", layout: layout, catalog: catalog)
        var gatherer = UserGatherer(decoder: decoder, worker: 0, workers: 1, shard: nil, promisedGrouped: false, maxErrors: 1_000)
        var reader = format.makeReader(layout, file: "fuzz-trace")
        func pull() {
            while let p = reader.nextWhole() {
                switch p {
                case .row(let row): gatherer.take(row)
                case .problem(let e): gatherer.take(e)
                }
            }
        }
        bytes.withUnsafeBufferPointer { all in
            let middle = all.count / 2
            reader.feed(UnsafeBufferPointer(rebasing: all[..<middle]))
            pull()
            reader.feed(UnsafeBufferPointer(rebasing: all[middle...]))
            pull()
        }
        reader.finish()
        pull()
        // Nothing read: nothing to add up (most random bytes end here).
        guard reader.rowCount > 0 else { return [] }
        let columns = Self.columns
        let replayer = Replayer(catalog: catalog, columns: columns, limits: limits, file: "fuzz-trace")
        var tallies = replayer.emptyTallies()
        var rows: [TimedEntry] = []
        for i in 0..<gatherer.heldUsers {
            let u = gatherer.user(i)
            guard !u.bad else { continue }
            gatherer.rows(of: i, into: &rows)
            do {
                _ = try replayer.replay(Replayer.User(id: u.id, firstRow: u.firstRow, rows: rows, values: gatherer.values), into: &tallies)
            } catch {
                if error.error.isInternal { return ["replay (\(format)): \(error)"] }
            }
        }
        tallies.completeGroups(replayer.groups)
        var report = ReplayReport(trace: "fuzz-trace", traceBytes: bytes.count, traceDigest: "poly64:0", catalog: "catalog.json",
                                  catalogDigest: "sha256:0", shard: nil, rows: reader.rowCount, badRows: gatherer.errorCount,
                                  skippedUsers: gatherer.skippedUsers, properties: catalog.expectations.map(\.text),
                                  labels: columns.map(\.label), tallies: tallies, hasProduction: gatherer.sawShown)
        report.groups = replayer.groups.all
        let json = render(report)
        guard case .success(let back) = ReplayJSON.parse(Array(json.utf8)), back == report else {
            return ["replay (\(format)): the JSON report does not read back as written"]
        }
        return []
    }

    /// Every format of a replay report; the JSON.
    static func render(_ report: ReplayReport) -> String {
        for by in [nil] + ReplayGroups.By.allCases {
            _ = ReplayText.render(report, width: 80, by: by)
            _ = ReplayText.markdown(report, by: by)
        }
        _ = ReplayText.csv(report)
        _ = ReplayCurves.svg(report)
        _ = ReplayCurves.html(report)
        return ReplayJSON.render(report)
    }
}
