import Dispatch
import Foundation
import PopsimSystem
import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// Users gathered by workers: however many workers share them, whether they stay in memory, go to
/// temporary partitions (split again when too big) or are replayed as each user's rows end, the
/// replay adds up to the same tallies; the order of users is followed for every worker alike.
/// Partitions kept in memory, read back in pieces of 1000 bytes (records cut anywhere).
final class MemoryStore: SpillStore, @unchecked Sendable {
    var parts: [[UInt8]]

    init(count: Int) { parts = Array(repeating: [], count: count) }

    var count: Int { parts.count }
    func append(_ part: Int, _ bytes: [UInt8]) throws(PopsimError) { parts[part] += bytes }
    func size(_ part: Int) -> Int { parts[part].count }
    func read(_ part: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(PopsimError) {
        var at = 0
        while at < parts[part].count {
            let end = min(parts[part].count, at + 1000)
            parts[part][at..<end].withUnsafeBufferPointer(body)
            at = end
        }
    }
    func close() {}
}

/// The error a thread met.
final class Failed: @unchecked Sendable {
    var error: PopsimError?
}

/// How many stores a replay made (what tells that a partition was split again).
final class StoreCount: @unchecked Sendable {
    var made = 0
}

@Suite("replay: gathering users")
struct UserGatheringTests {
    static let catalog: Scenario? = try? loadScenario(TraceGenerator.catalog).get()

    /// The tallies of replaying `text` with `workers` workers, spilling after `spillAfter` chunks
    /// (nil: never), reading it in chunks of `chunk` bytes.
    /// With `helped`, one more worker, holding no user, helps the others at the end, on a thread
    /// of its own (`help`), and `helped` counts the rows it replayed.
    static func replay(_ text: String, workers: Int, chunk: Int, spillAfter: Int?, grouped: Bool = false,
                       stores: StoreCount = StoreCount(), helped: UnsafeMutablePointer<Int>? = nil) throws -> ReplayTallies {
        let catalog = try #require(Self.catalog)
        let layout = TraceLayout(format: .csv)
        let decoder = TraceRowDecoder(file: "t.csv", layout: layout, catalog: catalog)
        let fg = try RunConfiguration.resolve(catalog, strategy: "fg", overrides: [])
        let replayer = Replayer(catalog: catalog, columns: [Replayer.Column(label: "fg", configuration: fg, catalog: catalog)],
                                limits: RunLimits(), file: "t.csv")
        let plan = SpillPlan(budget: 1, workers: workers, catalogBytes: 0, readBackFloor: 1 << 12)
        let list = (0..<workers).map { w in
            ReplayWorker(reader: layout.format.makeReader(layout, file: "t.csv"),
                         gatherer: UserGatherer(decoder: decoder, worker: w, workers: workers, shard: nil, promisedGrouped: grouped, maxErrors: 0),
                         replayer: replayer, plan: plan, saving: false, makeStore: { count in
                             stores.made += 1
                             return MemoryStore(count: count)
                         })
        }
        let bytes = Array(text.utf8)
        var at = 0, chunks = 0
        while at < bytes.count {
            let end = min(bytes.count, at + chunk)
            bytes[at..<end].withUnsafeBufferPointer { piece in for w in list { w.read(piece) } }
            chunks += 1
            if let spillAfter, chunks >= spillAfter { for w in list { try w.beginSpilling(); try w.flush(force: false) } }
            if grouped { for w in list { w.replayHeld(all: false) } }
            at = end
        }
        var tallies = replayer.emptyTallies()
        if let helped {
            let helper = ReplayWorker(reader: layout.format.makeReader(layout, file: "t.csv"),
                                      gatherer: UserGatherer(decoder: decoder, worker: 0, workers: 1, shard: nil, promisedGrouped: grouped, maxErrors: 0),
                                      replayer: replayer, plan: plan, saving: false, makeStore: { MemoryStore(count: $0) })
            let failed = Failed()
            for w in list { w.finishReading() }
            // The workers on a thread of their own, one after the other; the helper on this one
            // helps each as soon as it has started.
            let finished = DispatchSemaphore(value: 0)
            let owners = Thread {
                for w in list {
                    do throws(PopsimError) { try w.replayRest(maxErrors: 0, othersErrors: 0) } catch { failed.error = error }
                }
                finished.signal()
            }
            owners.start()
            for w in list {
                while !w.startedRest { System.yield() }
                helper.help(w)
            }
            finished.wait()
            if let error = failed.error { throw error }
            #expect(helper.failure == nil)
            tallies.merge(helper.tallies)
            helped.pointee = helper.replayedRows
        }
        for w in list {
            if helped == nil {
                w.finishReading()
                if w.isSpilling { try w.replaySpilled(maxErrors: 0, othersErrors: 0) } else { w.replayHeld(all: true) }
            }
            #expect(w.errorCount == 0)
            #expect(w.failure == nil)
            tallies.merge(w.tallies)
        }
        return tallies
    }

    /// At the end a worker done with its own users takes some of another's (`help`): whichever
    /// worker replays a user, the tallies add up the same, held or read back from partitions. The
    /// helper's share depends on the threads' timing, so it is tried until it took some.
    @Test func usersTakenByAHelperAddUpTheSame() throws {
        let text = try TraceGenerator(users: 400, seed: 6, strategy: "fg").csv()
        let whole = try Self.replay(text, workers: 1, chunk: 1 << 20, spillAfter: nil)
        #expect(whole.columns[0].users == 400)
        for (workers, spillAfter) in [(1, nil), (2, nil), (1, 1), (2, 1)] as [(Int, Int?)] {
            var tries = 0, rows = 0
            while rows == 0, tries < 50 {
                tries += 1
                #expect(try Self.replay(text, workers: workers, chunk: 8 << 10, spillAfter: spillAfter, helped: &rows) == whole,
                        "\(workers) workers, spilled: \(spillAfter != nil)")
            }
            #expect(rows > 0, "the helper replayed no user in \(tries) tries")
        }
    }

    @Test func everyWayOfGatheringAddsUpTheSame() throws {
        let catalog = try #require(Self.catalog)
        let text = try TraceGenerator(users: 120, seed: 4, strategy: "fg").csv()
        let whole = try Self.replay(text, workers: 1, chunk: 1 << 20, spillAfter: nil)
        #expect(whole.production.users == 120 && whole.columns[0].users == 120)
        for workers in [1, 2, 3] {
            for chunk in [997, 64 << 10] {
                #expect(try Self.replay(text, workers: workers, chunk: chunk, spillAfter: nil) == whole, "\(workers) workers, \(chunk)")
                let stores = StoreCount()
                #expect(try Self.replay(text, workers: workers, chunk: chunk, spillAfter: 1, stores: stores) == whole, "spilled: \(workers), \(chunk)")
                // Below the minimum, a partition of more than 4 KiB is split again.
                #expect(stores.made > workers, "partitions split again")
            }
        }
        // Sorted by user: replayed as each user's rows end, the same again.
        let lines = text.split(separator: "\n")
        let sorted = ([String(lines[0])] + lines.dropFirst().sorted { $0.prefix { $0 != "," } < $1.prefix { $0 != "," } }.map(String.init))
            .joined(separator: "\n") + "\n"
        for workers in [1, 2] {
            #expect(try Self.replay(sorted, workers: workers, chunk: 4093, spillAfter: nil, grouped: true) == whole)
        }
    }

    /// Every worker follows the order of all the shard's users: a user's rows after another's are
    /// seen by the worker that owns it, whoever owns the other.
    @Test func theOrderOfUsersIsEveryWorkersAlike() throws {
        let catalog = try #require(Self.catalog)
        let text = "user,time,action,popup,value\nu1,0,enqueue,toast,\nu2,1,enqueue,toast,\nu1,2,enqueue,toast,\n"
        for workers in [1, 2, 3] {
            let decoder = TraceRowDecoder(file: "t.csv", layout: TraceLayout(format: .csv), catalog: catalog)
            var gatherers = (0..<workers).map { UserGatherer(decoder: decoder, worker: $0, workers: workers, shard: nil, promisedGrouped: true, maxErrors: 5) }
            for w in 0..<workers {
                var reader = CSVTraceReader(layout: TraceLayout(format: .csv), file: "t.csv")
                Array(text.utf8).withUnsafeBufferPointer { reader.feed($0); gatherers[w].read(&reader) }
                reader.finish()
                gatherers[w].read(&reader)
            }
            let errors = gatherers.flatMap(\.errors).map(TraceErrorText.line)
            #expect(errors == ["t.csv:4:1: expected the rows of user \"u1\" together (--grouped), got another row of it after other users' (leave out --grouped)"],
                    "\(workers) workers")
            #expect(gatherers.filter { !$0.groupedSoFar }.count == 1)
        }
    }

    /// The workers share the users about evenly, whatever their number: a slip in the formula once
    /// gave every user to worker 0 (the report was the same, on one core), and FNV's middle bits
    /// alone gave one of 64 workers no user.
    @Test func theWorkersShareTheUsersEvenly() {
        for workers in [2, 3, 5, 8, 64] {
            var per = [Int](repeating: 0, count: workers)
            for i in 0..<6_400 {
                var id = "u\(i)"
                let w = id.withUTF8 { UserGatherer.worker(of: UserTable.hash($0), among: workers) }
                per[w] += 1
            }
            let even = 6_400 / workers
            #expect(per.allSatisfy { $0 > even * 3 / 4 && $0 < even * 5 / 4 }, "\(workers) workers: \(per)")
        }
    }
}
