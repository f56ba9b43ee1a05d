import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Every figure is also counted per popup, level and key (issue 40): the groups follow the
/// catalog; a request, a show and its wait count in each of its popup's groups; a user counts in
/// a group its run requested; a group names the properties about its popups; and the groups'
/// tallies merge by the same laws as the whole's.
@Suite("replay: per popup, level and key")
struct ReplayGroupsTests {
    static let catalog: Scenario? = try? loadScenario(#"""
        {"popsim": 1, "strategy": "fg",
         "popups": {"a": {"priority": 10, "duration": 1000, "level": "high", "key": "promo"},
                    "b": {"priority": 5, "duration": 1000, "key": "promo"},
                    "c": {"priority": 1, "duration": 1000},
                    "d": {"duration": 1000, "level": "normal"}},
         "expect": ["wait a <= 100", "visible <= 1", "b before c"]}
        """#).get()

    /// A replayer of the catalog under fg alone.
    static func fgReplayer() throws -> Replayer {
        let catalog = try #require(Self.catalog)
        let fg = try RunConfiguration.resolve(catalog, strategy: "fg", overrides: [])
        return Replayer(catalog: catalog, columns: [Replayer.Column(label: "fg", configuration: fg, catalog: catalog)],
                        limits: RunLimits(), file: "t.csv")
    }

    @Test func theGroupsFollowTheCatalog() throws {
        let groups = ReplayGroups(catalog: try #require(Self.catalog))
        #expect(groups.all.map { "\($0.by.rawValue) \($0.name)" } == ["popup a", "popup b", "popup c", "popup d", "level normal", "level high", "key promo"])
        // Properties about each: those naming one of its popups, and visible (naming none).
        #expect(groups.all.map(\.properties) == [[0, 1], [1, 2], [1, 2], [1], [1], [0, 1], [0, 1, 2]])
        var seen: [Int: [Int]] = [:]
        for p in 0..<4 { groups.forEach(of: p) { seen[p, default: []].append($0) } }
        #expect(seen == [0: [0, 5, 6], 1: [1, 6], 2: [2], 3: [3, 4]])
        groups.forEach(of: -1) { _ in Issue.record("a subject that is no popup has no group") }
        groups.forEach(of: 9) { _ in Issue.record("a subject that is no popup has no group") }
    }

    /// One user: a and b at 0, c at 10, under fg: a shows at once, b at 1000, c at 2000.
    @Test func aRunCountsInEachOfItsPopupsGroups() throws {
        let replayer = try Self.fgReplayer()
        var tallies = replayer.emptyTallies()
        try replay("user,time,action,popup,value\nu,0,enqueue,a,\nu,0,enqueue,b,\nu,0,shown,a,\nu,10,enqueue,c,\n", with: replayer, into: &tallies)
        // Levels and keys count their users and failures as the runs go; their other figures
        // come from their popups', once, at the end.
        #expect(tallies.columnGroups[0].map(\.users) == [1, 1, 1, 0, 0, 1, 1])
        #expect(tallies.columnGroups[0].map(\.requests) == [1, 1, 1, 0, 0, 0, 0])
        var done = tallies
        done.completeGroups(replayer.groups)
        let fgGroups = done.columnGroups[0]
        #expect(fgGroups.map(\.users) == [1, 1, 1, 0, 0, 1, 1])
        #expect(fgGroups.map(\.requests) == [1, 1, 1, 0, 0, 1, 2])
        #expect(fgGroups.map(\.shown) == [1, 1, 1, 0, 0, 1, 2])
        #expect(fgGroups.map(\.waits.max) == [0, 1000, 1990, nil, nil, 0, 1000])
        #expect(fgGroups.map(\.waits.count) == [1, 1, 1, 0, 0, 1, 2])
        // The whole is every popup's sum.
        #expect(tallies.columns[0].requests == 3 && tallies.columns[0].shown == 3)
        // Production's groups: its requests and the one show it recorded.
        #expect(done.productionGroups.map(\.requests) == [1, 1, 1, 0, 0, 1, 2])
        #expect(done.productionGroups.map(\.shown) == [1, 0, 0, 0, 0, 1, 1])
        #expect(done.productionGroups.map(\.users) == [1, 1, 1, 0, 0, 1, 1])
        // A second user who only asks for d (a level of its own): it never fails a property there.
        try replay("user,time,action,popup,value\nv,0,enqueue,d,\n", with: replayer, into: &tallies)
        #expect(tallies.columnGroups[0].map(\.users) == [1, 1, 1, 1, 1, 1, 1])
        #expect(tallies.columns[0].users == 2)
    }

    /// A user's failures count in the groups its run requested, and only there.
    @Test func aFailingPropertyCountsInTheGroupsTheUserRequested() throws {
        let replayer = try Self.fgReplayer()
        var tallies = replayer.emptyTallies()
        // c waits for b, then a, which waits 1000 ms behind it: `wait a <= 100` fails, `b before c` holds.
        try replay("user,time,action,popup,value\nu,0,enqueue,c,\nu,1,enqueue,b,\nu,2,enqueue,a,\n", with: replayer, into: &tallies)
        #expect(tallies.columns[0].failures == [1, 0, 1])
        #expect(tallies.columnGroups[0].map(\.failures) == [[1, 0, 1], [1, 0, 1], [1, 0, 1], [0, 0, 0], [0, 0, 0], [1, 0, 1], [1, 0, 1]])
    }

    @Test func groupsMergeLikeTheWhole() {
        // Production's tallies judge the properties as the columns' do (its rows as a run).
        func production(_ seed: UInt64) -> ReplayTally { ReplayTallyMergeTests.random(seed) }
        func random(_ seed: UInt64) -> ReplayTallies {
            var t = ReplayTallies(columns: 2, properties: ReplayTallyMergeTests.properties, groups: 3)
            t.production = production(seed)
            t.columns = [ReplayTallyMergeTests.random(seed &+ 1), ReplayTallyMergeTests.random(seed &+ 2)]
            t.productionGroups = (0..<3).map { production(seed &+ 10 &+ UInt64($0)) }
            t.columnGroups = (0..<2).map { c in (0..<3).map { ReplayTallyMergeTests.random(seed &+ 20 &+ UInt64(c * 3 + $0)) } }
            return t
        }
        func merged(_ a: ReplayTallies, _ b: ReplayTallies) -> ReplayTallies {
            var m = a
            m.merge(b)
            return m
        }
        let list = (0..<5).map { random(UInt64($0) &* 104_729) }
        let empty = ReplayTallies(columns: 2, properties: ReplayTallyMergeTests.properties, groups: 3)
        for a in list {
            #expect(merged(a, empty) == a && merged(empty, a) == a)
            for b in list {
                #expect(merged(a, b) == merged(b, a))
                for c in list { #expect(merged(merged(a, b), c) == merged(a, merged(b, c))) }
            }
        }
    }

    /// Reads `csv` (one user's rows) and replays its user into `tallies`.
    func replay(_ csv: String, with replayer: Replayer, into tallies: inout ReplayTallies) throws {
        let layout = TraceLayout(format: .csv)
        let decoder = TraceRowDecoder(file: "t.csv", layout: layout, catalog: replayer.catalog)
        var gatherer = UserGatherer(decoder: decoder, worker: 0, workers: 1, shard: nil, promisedGrouped: false, maxErrors: 0)
        var reader = layout.format.makeReader(layout, file: "t.csv")
        let bytes = Array(csv.utf8)
        bytes.withUnsafeBufferPointer { all in
            reader.feed(all)
            gatherer.read(&reader)
        }
        reader.finish()
        gatherer.read(&reader)
        #expect(gatherer.errors.isEmpty)
        var rows: [TimedEntry] = []
        for i in 0..<gatherer.heldUsers {
            let u = gatherer.user(i)
            gatherer.rows(of: i, into: &rows)
            _ = try replayer.replay(Replayer.User(id: u.id, firstRow: u.firstRow, rows: rows, values: gatherer.values), into: &tallies)
        }
    }
}
