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
            if grouped { for w in list { w.replayHeld() } }
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
                try w.replayRest(maxErrors: 0, othersErrors: 0)
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
        _ = try #require(Self.catalog)
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

    /// A split reading hands each worker only its own users' rows (`RowIndex`): the order of the
    /// shard's users is still followed as when every worker reads every row — the same users done
    /// after every chunk, the same rows of a user after another's (errors with `--grouped`), the
    /// same verdict on whether the trace is grouped — whatever the cuts, pieces and shard.
    @Test func theOrderOfUsersIsFollowedThroughASplitReading() throws {
        let catalog = try #require(Self.catalog)
        let traces = [
            // Grouped, with rows without a user between users.
            "user,time,action,popup,value\nu1,0,enqueue,toast,\nu1,1,enqueue,toast,\n,2,enqueue,toast,\nu2,3,enqueue,toast,\nu3,4,enqueue,toast,\nu3,5,enqueue,toast,\nu4,6,enqueue,toast,\n",
            // Interleaved: users come back after others'.
            "user,time,action,popup,value\n" + (0..<60).map { "u\(($0 * 7) % 11),\($0),enqueue,toast,\n" }.joined(),
            // Runs of users, one coming back late, a bad row among them.
            "user,time,action,popup,value\n" + (0..<40).map { "u\($0 / 3),\($0),enqueue,toast,\n" }.joined() + "u2,99,enqueue,toast,\nu20,100,bad,toast,\nu21,101,enqueue,toast,\n",
        ].map { ($0, [7, 40, $0.utf8.count]) }
        let comeback = Self.comebackAtACut()
        #expect(!comeback.text.isEmpty)
        for (text, chunks) in traces + [(comeback.text, [comeback.chunk])] {
            let bytes = Array(text.utf8)
            for ways in [2, 3] {
                for grouped in [false, true] {
                    for shard in [nil, Shard(index: 1, count: 2)] {
                        for chunk in chunks {
                            for limit in [0, 2] {
                                let whole = Self.follow(bytes, catalog, ways: ways, grouped: grouped, shard: shard, chunk: chunk, split: nil)
                                let split = Self.follow(bytes, catalog, ways: ways, grouped: grouped, shard: shard, chunk: chunk, split: limit)
                                #expect(split == whole, "\(ways) ways, grouped \(grouped), shard \(shard?.text ?? "-"), chunks of \(chunk), limit \(limit)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// A user's row, another worker's user's row, and the first user's again, read in chunks of
    /// the returned size: the second chunk holds the three rows, and the cut of its two-way split
    /// comes right after the second (the first chunk is never split: the header is in it). Then
    /// only the flag of the piece's first row (`setForeignBefore`) tells the first user's worker
    /// of the other's row.
    static func comebackAtACut() -> (text: String, chunk: Int) {
        let ids = (0..<64).map { "u\($0)" }
        let worker = { (id: String) in UserGatherer.worker(of: Array(id.utf8).withUnsafeBufferPointer { UserTable.hash($0) }, among: 2) }
        let a = ids.first { worker($0) == 0 } ?? "u0", b = ids.first { worker($0) == 1 } ?? "u1"
        let rows = "\(a),1,enqueue,toast,\n\(b),2,enqueue,toast,\n"
        for before in 0..<40 {
            for after in 0..<40 {
                let first = "user,time,action,popup,value\n" + String(repeating: ",0,enqueue,toast,\n", count: before)
                let rest = rows + "\(a),3,enqueue,toast,\n" + String(repeating: ",4,enqueue,toast,\n", count: after)
                guard rest.utf8.count <= first.utf8.count else { continue }
                let cut = Array(rest.utf8).withUnsafeBufferPointer { SplitReading.cuts($0, ways: 2) }[0]
                if cut == rows.utf8.count { return (first + rest, first.utf8.count) }
            }
        }
        return ("", 1)
    }

    /// What gatherers of `ways` workers make of the order of users, reading `bytes` in chunks: the
    /// users done after each chunk, the errors, and whether each found the trace grouped. `split`:
    /// through a split reading (its rows per piece; 0: no limit), else every worker reads every row.
    static func follow(_ bytes: [UInt8], _ catalog: Scenario, ways: Int, grouped: Bool, shard: Shard?, chunk: Int, split: Int?) -> [String] {
        let layout = TraceLayout(format: .csv)
        let decoder = TraceRowDecoder(file: "t.csv", layout: layout, catalog: catalog)
        var gatherers = (0..<ways).map { UserGatherer(decoder: decoder, worker: $0, workers: ways, shard: shard, promisedGrouped: grouped, maxErrors: 100) }
        var readers = (0..<ways).map { _ in layout.format.makeReader(layout, file: "t.csv") }
        let reading = split.map { SplitReading(reader: layout.format.makeReader(layout, file: "t.csv"), ways: ways, shard: shard, rowsPerPiece: $0 == 0 ? nil : $0) }
        var seen: [String] = []
        func readAll(_ first: [IndexedRows.Part]?, _ reading: SplitReading) {
            var next = first ?? reading.more()
            while let batch = next {
                for w in 0..<ways {
                    var rows = IndexedRows()
                    rows.start(batch, worker: w)
                    gatherers[w].read(&rows)
                }
                next = reading.more()
            }
        }
        func done() -> String {
            gatherers.flatMap { g in (0..<g.heldUsers).filter { g.user($0).finished }.map { g.user($0).id } }.sorted().joined(separator: " ")
        }
        bytes.withUnsafeBufferPointer { all in
            var at = 0
            while at < all.count {
                let piece = UnsafeBufferPointer(rebasing: all[at..<min(all.count, at + chunk)])
                if let reading {
                    for w in 0..<reading.begin(piece) { reading.index(w) }
                    readAll(reading.settle(), reading)
                } else {
                    for w in 0..<ways {
                        readers[w].feed(piece)
                        gatherers[w].read(&readers[w])
                    }
                }
                seen.append("done: " + done())
                at += chunk
            }
        }
        if let reading {
            reading.finish()
            readAll(nil, reading)
        } else {
            for w in 0..<ways {
                readers[w].finish()
                gatherers[w].read(&readers[w])
            }
        }
        seen.append("done: " + done())
        seen += gatherers.flatMap(\.errorsInOrder).map(TraceErrorText.line).sorted()
        seen.append("grouped: " + gatherers.map { "\($0.groupedSoFar)" }.joined(separator: " "))
        return seen
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
