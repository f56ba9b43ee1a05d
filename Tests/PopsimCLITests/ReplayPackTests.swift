import Foundation
import Testing
import PopsimTestSupport
import PopsimCore

/// `replay --pack FILE` and the replay of a pack: the same report bytes as the trace under any
/// columns, jobs and memory; the same pack bytes every run; a pack read only as it was packed
/// and against its catalog; a damaged pack an error, never a crash; nothing written on failure.
@Suite("replay: packs", .serialized)
struct ReplayPackTests {
    func week(users: Int = 300) throws -> URL {
        let dir = try temporaryDirectory()
        let gen = try runPopsim(["gen", "--trace", "--users", String(users), "--seed", "7", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        #expect(gen.status == 0, "\(gen.stderr)")
        return dir
    }

    static let damaged = "not a pack this popsim can read (damaged, or not written by popsim replay --pack): pack the trace again"

    func bytes(_ dir: URL, _ name: String) throws -> Data { try Data(contentsOf: dir.appendingPathComponent(name)) }

    /// Replaying the pack gives every report the trace gives, byte for byte: text, JSON (its
    /// digests included), CSV; several strategies, a sweep, `--by`, any `--jobs`, a small `--memory`.
    @Test func aPackReplaysToTheSameReportAsItsTrace() throws {
        let dir = try week()
        let pack = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--pack", "week.pack"], in: dir)
        #expect(pack.status == 0 && pack.stderr == "", "\(pack.stderr)")
        let variants: [[String]] = [
            ["--strategy", "fg"],
            ["--strategy", "fg", "--strategy", "jc-lifo", "--strategy", "keyed", "--format", "json"],
            ["--strategy", "all", "--format", "csv", "--jobs", "2"],
            ["--strategy", "fg", "--by", "popup", "--jobs", "3"],
            ["--strategy", "fg", "--strategy", "notistack", "--sweep", "dedupe=on,off", "--format", "json", "--jobs", "2", "--memory", "1M"],
        ]
        for args in variants {
            let fromTrace = try runPopsim(["replay", "week.csv", "--catalog", "app.json"] + args, in: dir)
            let fromPack = try runPopsim(["replay", "week.pack", "--catalog", "app.json"] + args, in: dir)
            #expect(fromTrace.status == 0 && fromTrace.stdout.count > 200, "\(args) \(fromTrace.stderr)")
            #expect(fromPack.status == fromTrace.status, "\(args) \(fromPack.stderr)")
            #expect(fromPack.stdout == fromTrace.stdout, "\(args)")
            #expect(fromPack.stderr == fromTrace.stderr, "\(args)")
        }
    }

    /// A trace that looks grouped by user, then is not (a user comes back at the end), under a
    /// memory budget that streams it: read again from its start, the pack holds each user once.
    @Test func aTraceReadAgainPacksEachUserOnce() throws {
        // Enough users that blocks are written before the comeback is found (a block is 1 MiB).
        let dir = try week(users: 6000)
        let csv = try String(contentsOf: dir.appendingPathComponent("week.csv"), encoding: .utf8)
        var lines = csv.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        // By user, each user's rows in their order (a stable sort, as `sort -s`).
        lines = lines.enumerated().sorted { (a, b) in
            let (ua, ub) = (a.element.split(separator: ",")[0], b.element.split(separator: ",")[0])
            return ua != ub ? ua < ub : a.offset < b.offset
        }.map(\.element)
        let first = lines[0].split(separator: ",")[0]
        let grouped = ([header] + lines + ["\(first),1900000000000,set,,screen=home"]).joined(separator: "\n") + "\n"
        try grouped.write(to: dir.appendingPathComponent("g.csv"), atomically: true, encoding: .utf8)
        let base = ["--catalog", "app.json", "--strategy", "fg", "--format", "json"]
        // 34M: held users pass the budget, so each is replayed (and packed) as its rows end, and
        // the users remembered as done stay within it until the comeback: more than a block is
        // packed before the trace is read again (without starting the pack over: 10,800 users).
        let packing = try runPopsim(["replay", "g.csv", "--memory", "34M", "--pack", "g.pack"] + base, in: dir)
        #expect(packing.status == 0)
        let held = try runPopsim(["replay", "g.csv"] + base, in: dir)
        let fromPack = try runPopsim(["replay", "g.pack"] + base, in: dir)
        #expect(fromPack.status == 0 && fromPack.stdout == held.stdout && packing.stdout == held.stdout)
        #expect(fromPack.stdout.contains("\"users\": 6000"))
    }

    /// What reading found travels in the pack: bad rows skipped with `--max-errors` (said once,
    /// when packing), unmapped events, production's rows; the replay of the pack counts them alike.
    @Test func whatReadingFoundTravelsInThePack() throws {
        let dir = try temporaryDirectory()
        try ReplayTests.catalog.write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let trace = ReplayTests.trace + "u4,70,enqueue,nosuch,\nu5,80,launch,,\n"
        try trace.write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let args = ["--catalog", "c.json", "--strategy", "fg", "--max-errors", "1", "--event", "seen=shown"]
        let packing = try runPopsim(["replay", "t.csv", "--pack", "t.pack"] + args, in: dir)
        #expect(packing.status == 0)
        #expect(packing.stderr.hasPrefix("t.csv:11:"), "\(packing.stderr)")
        let again = try runPopsim(["replay", "t.pack", "--catalog", "c.json", "--strategy", "fg"], in: dir)
        #expect(again.status == 0 && again.stderr == "")
        #expect(again.stdout == packing.stdout)
        #expect(again.stdout.hasPrefix("replay: t.csv with c.json: "), "\(again.stdout)")
        #expect(again.stdout.contains("1 bad rows skipped with their 1 users") && again.stdout.contains("launch 1"), "\(again.stdout)")
    }

    /// The pack's bytes are the same on every run and for any `--jobs` (packing replays with one
    /// worker), and from standard input as from the file.
    @Test func packBytesAreTheSameEveryRun() throws {
        let dir = try week()
        for (name, jobs) in [("a.pack", "1"), ("b.pack", "2"), ("c.pack", "3")] {
            let output = try runPopsim(["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg", "--jobs", jobs, "--pack", name], in: dir)
            #expect(output.status == 0)
        }
        let csv = try String(contentsOf: dir.appendingPathComponent("week.csv"), encoding: .utf8)
        let piped = try runPopsim(["replay", "-", "--catalog", "app.json", "--strategy", "keyed", "--pack", "d.pack"], in: dir, stdin: csv)
        #expect(piped.status == 0, "\(piped.stderr)")
        let a = try bytes(dir, "a.pack")
        #expect(a.count > 1000 && a.prefix(4) == Data("PSPK".utf8))
        #expect(try bytes(dir, "b.pack") == a)
        #expect(try bytes(dir, "c.pack") == a)
        // From standard input the trace's name is "-" (the manifest); the blocks are the same bytes.
        let d = try bytes(dir, "d.pack")
        let manifest = a.suffix(20).prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(manifest > 5 && manifest < a.count - 20)
        #expect(d.prefix(manifest) == a.prefix(manifest))
        #expect(d != a)
    }

    /// A pack is read as it was packed and against the catalog it was packed with; `--pack` is
    /// refused where it cannot be honest, and a failing replay writes no pack.
    @Test func aPackIsReadOnlyAsItWasPacked() throws {
        let dir = try week(users: 40)
        let base = ["--catalog", "app.json", "--strategy", "fg"]
        #expect(try runPopsim(["replay", "week.csv", "--pack", "week.pack"] + base, in: dir).status == 0)
        let columns = try runPopsim(["replay", "week.pack", "--columns", "user=id"] + base, in: dir)
        #expect(columns.status == 2 && columns.stdout == "")
        #expect(columns.stderr == "popsim: replay: --columns: week.pack is a pack, read as it was packed; to read the trace otherwise, pack it again with --columns\n")
        let shard = try runPopsim(["replay", "week.pack", "--shard", "0/2"] + base, in: dir)
        #expect(shard.status == 2 && shard.stderr.contains("--shard: week.pack is a pack"))
        // Another catalog: the popups' numbers would mean other popups.
        var catalog = try String(contentsOf: dir.appendingPathComponent("app.json"), encoding: .utf8)
        catalog = catalog.replacingOccurrences(of: "\"name\": \"app\"", with: "\"name\": \"other\"")
        try catalog.write(to: dir.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
        let other = try runPopsim(["replay", "week.pack", "--catalog", "other.json", "--strategy", "fg"], in: dir)
        #expect(other.status == 2 && other.stdout == "")
        #expect(other.stderr.hasPrefix("week.pack: packed against another catalog (sha256:"), "\(other.stderr)")
        #expect(other.stderr.hasSuffix("): replay it with the catalog it was packed with, or pack the trace again with this one\n"))
        // --pack over an input, with --shard, of a pack.
        let over = try runPopsim(["replay", "week.csv", "--pack", "week.csv"] + base, in: dir)
        #expect(over.status == 2)
        #expect(over.stderr == "popsim: replay: --pack week.csv is one of its inputs: writing the pack there would replace it; name another file\n")
        let sharded = try runPopsim(["replay", "week.csv", "--pack", "x.pack", "--shard", "1/2"] + base, in: dir)
        #expect(sharded.status == 2 && sharded.stderr.contains("a pack holds the whole trace"))
        let merging = try runPopsim(["replay", "--merge", "a.json", "--pack", "x.pack"], in: dir)
        #expect(merging.status == 2 && merging.stderr == "popsim: replay: --pack: --merge reads reports, not a trace: nothing to pack\n")
        let twice = try runPopsim(["replay", "week.pack", "--pack", "x.pack"] + base, in: dir)
        #expect(twice.status == 2 && twice.stderr == "popsim: replay: --pack: the trace is a pack already\n")
        // A replay that fails (a bad row, no --max-errors) leaves the old pack as it was.
        let before = try bytes(dir, "week.pack")
        try "user,time,action,popup,value\nu1,x,enqueue,a,\n".write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let failed = try runPopsim(["replay", "bad.csv", "--pack", "week.pack"] + base, in: dir)
        #expect(failed.status == 2)
        #expect(try bytes(dir, "week.pack") == before)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.pack").path))
    }

    /// Cut short or with a byte changed anywhere (header, blocks, manifest, footer: each has its
    /// checksum), a pack is an error: exit 2, nothing on standard output, never a crash.
    @Test func aDamagedPackIsAnErrorNeverACrash() throws {
        let dir = try week(users: 30)
        let base = ["--catalog", "app.json", "--strategy", "fg", "--strategy", "keyed"]
        #expect(try runPopsim(["replay", "week.csv", "--pack", "week.pack"] + base, in: dir).status == 0)
        let good = try bytes(dir, "week.pack")
        var damaged: [Data] = []
        for cut in [4, 5, 6, 100, good.count / 2, good.count - 29, good.count - 28, good.count - 1] { damaged.append(good.prefix(cut)) }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<40 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var d = good
            let at = Int(seed >> 33) % d.count
            d[at] ^= UInt8(truncatingIfNeeded: seed >> 8) | 1
            damaged.append(d)
        }
        // The last byte of each part: the header's version, a block's, the manifest's, the footer's.
        let manifest = good.suffix(28).prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        for at in [4, 5, manifest - 1, manifest, good.count - 29, good.count - 5] {
            var d = good
            d[at] ^= 0x01
            damaged.append(d)
        }
        for (k, d) in damaged.enumerated() {
            try d.write(to: dir.appendingPathComponent("d.pack"))
            let output = try runPopsim(["replay", "d.pack"] + base, in: dir)
            #expect(output.status == 2 && output.stdout == "", "case \(k): \(output.status) \(output.stderr)")
            // Located at the file (a pack's damage), or at its line and column (a file whose
            // version byte is gone is no pack, and reads as a CSV that is not a trace).
            #expect(output.stderr.hasPrefix("d.pack: ") || output.stderr.hasPrefix("d.pack:1:1: "), "case \(k): \(output.stderr)")
        }
    }

    /// A manifest rewritten with its checksum made again (a forgery, not damage): what it says
    /// that its blocks do not hold (another count of users), or counts past any trace's, is
    /// refused all the same.
    @Test func aManifestThatLiesIsRefused() throws {
        let dir = try week(users: 30)
        let base = ["--catalog", "app.json", "--strategy", "fg"]
        #expect(try runPopsim(["replay", "week.csv", "--pack", "week.pack"] + base, in: dir).status == 0)
        let good = [UInt8](try bytes(dir, "week.pack"))
        let offset = good.suffix(28).prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        let json = String(decoding: good[offset..<(good.count - 28)], as: UTF8.self)
        #expect(json.contains("\"users\": 30, "))
        for (from, to) in [("\"users\": 30, ", "\"users\": 31, "), ("\"users\": 30, ", "\"users\": 29, "),
                           ("\"maxErrors\": 0", "\"maxErrors\": 9223372036854775807"), ("\"unmapped\": {}", "\"unmapped\": {\"x\": 1, \"x\": 2}"),
                           // Counts no replay that ended well writes (issue 66, cause 10).
                           ("\"badRows\": 0", "\"badRows\": 5"), ("\"skippedUsers\": 0", "\"skippedUsers\": 99999999"),
                           ("\"unmapped\": {}", "\"unmapped\": {\"x\": 99999999}")] {
            let forged = Array(json.replacingOccurrences(of: from, with: to).utf8)
            let pack = Array(good[0..<offset]) + forged + TracePack.footer(offset: offset, length: forged.count, checksum: TracePack.Checksum.of(forged))
            try Data(pack).write(to: dir.appendingPathComponent("f.pack"))
            let output = try runPopsim(["replay", "f.pack"] + base, in: dir)
            #expect(output.status == 2 && output.stdout == "", "\(to): \(output.stderr)")
            #expect(output.stderr == "f.pack: \(Self.damaged)\n", "\(to)")
        }
    }

    /// A pack popsim never writes is refused before it is held (issue 66, cause 19): a manifest
    /// far past what its blocks need, and a block whose users begin after more rows than a block
    /// holds (a forged block of a million users was gathered whole, past the budget).
    @Test func aPackPastWhatPopsimWritesIsRefused() throws {
        let dir = try week(users: 30)
        let base = ["--catalog", "app.json", "--strategy", "fg"]
        #expect(try runPopsim(["replay", "week.csv", "--pack", "week.pack"] + base, in: dir).status == 0)
        let good = [UInt8](try bytes(dir, "week.pack"))
        let place = try #require(TracePack.manifestPlace(footer: Array(good.suffix(TracePack.footerBytes)), fileBytes: good.count))
        let json = Array(good[place.offset..<(place.offset + place.length)])
        func pack(_ blocks: [UInt8], _ manifest: [UInt8]) -> [UInt8] {
            TracePack.header + blocks + manifest + TracePack.footer(offset: TracePack.header.count + blocks.count, length: manifest.count,
                                                                    checksum: TracePack.Checksum.of(manifest))
        }
        // The manifest padded with 4 MB of spaces: valid JSON, its checksum made again.
        let padded = Array(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"unmapped\": {}", with: "\"unmapped\": {" + String(repeating: " ", count: 4 << 20) + "}").utf8)
        try Data(pack(Array(good[TracePack.header.count..<place.offset]), padded)).write(to: dir.appendingPathComponent("p.pack"))
        let big = try runPopsim(["replay", "p.pack"] + base, in: dir)
        #expect(big.status == 2 && big.stderr == "p.pack: \(Self.damaged)\n", "\(big.stderr)")
        // One block: a user of 600,000 rows, then two more users.
        var writer = PackBlockWriter()
        let rows = (0..<600_000).map { TimedEntry(time: $0, entry: PackedEntry(op: TraceVerb.action(.enqueue).ordinal, popup: 0, value: -1)) }
        for (k, n) in [600_000, 2, 2].enumerated() {
            Array("f\(k)".utf8).withUnsafeBufferPointer { writer.add(user: $0, firstRow: k * 700_000 + 1, rows: Array(rows.prefix(n)), values: TraceValues()) }
        }
        var manifest = try #require(TracePack.Manifest.read(json))
        manifest.users = 3
        manifest.rows = 600_004
        manifest.blocks = [TracePack.Manifest.Block(bytes: writer.bytes.count, checksum: TracePack.Checksum.of(writer.bytes))]
        try Data(pack(writer.bytes, Array(manifest.json.utf8))).write(to: dir.appendingPathComponent("f.pack"))
        let forged = try runPopsim(["replay", "f.pack"] + base, in: dir)
        #expect(forged.status == 2 && forged.stdout == "", "\(forged.stderr)")
        #expect(forged.stderr.hasPrefix("f.pack: "), "\(forged.stderr)")
        // The same users, one a block, as popsim writes them: read.
        var blocks: [UInt8] = []
        var list: [TracePack.Manifest.Block] = []
        for (k, n) in [600_000, 2, 2].enumerated() {
            var w = PackBlockWriter()
            Array("f\(k)".utf8).withUnsafeBufferPointer { w.add(user: $0, firstRow: k * 700_000 + 1, rows: Array(rows.prefix(n)), values: TraceValues()) }
            blocks += w.bytes
            list.append(TracePack.Manifest.Block(bytes: w.bytes.count, checksum: TracePack.Checksum.of(w.bytes)))
        }
        manifest.blocks = list
        try Data(pack(blocks, Array(manifest.json.utf8))).write(to: dir.appendingPathComponent("h.pack"))
        let honest = try runPopsim(["replay", "h.pack"] + base, in: dir)
        #expect(honest.status == 0, "\(honest.stderr)")
        // The first block twice, the manifest's counts made to match (issue 66, cause 8): each
        // user once over all the blocks, under any --jobs.
        var twice = try #require(TracePack.Manifest.read(json))
        let first = Array(good[TracePack.header.count..<(TracePack.header.count + twice.blocks[0].bytes)])
        twice.blocks = [twice.blocks[0], twice.blocks[0]] + twice.blocks.dropFirst()
        twice.users += 30
        twice.rows *= 2
        try Data(pack(first + Array(good[TracePack.header.count..<place.offset]), Array(twice.json.utf8))).write(to: dir.appendingPathComponent("t.pack"))
        // A manifest that counts fewer rows than its users hold.
        var fewer = try #require(TracePack.Manifest.read(json))
        fewer.rows = fewer.users
        try Data(pack(Array(good[TracePack.header.count..<place.offset]), Array(fewer.json.utf8))).write(to: dir.appendingPathComponent("r.pack"))
        let rowsLie = try runPopsim(["replay", "r.pack"] + base, in: dir)
        #expect(rowsLie.status == 2 && rowsLie.stderr == "r.pack: \(Self.damaged)\n", "\(rowsLie.stderr)")
        for jobs in ["1", "2"] {
            let doubled = try runPopsim(["replay", "t.pack", "--jobs", jobs] + base, in: dir)
            #expect(doubled.status == 2 && doubled.stdout == "" && doubled.stderr == "t.pack: \(Self.damaged)\n", "\(jobs): \(doubled.stderr)")
        }
    }

    /// The pack is written last, once the report is: a replay whose report cannot be written
    /// leaves no pack; the pack and the report never share a file.
    @Test func thePackIsWrittenOnlyWithItsReport() throws {
        let dir = try week(users: 40)
        let base = ["replay", "week.csv", "--catalog", "app.json", "--strategy", "fg"]
        let nowhere = try runPopsim(base + ["--pack", "w.pack", "--output", "no/such/folder/r.txt"], in: dir)
        #expect(nowhere.status == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("w.pack").path))
        let same = try runPopsim(base + ["--pack", "r.out", "--output", "r.out"], in: dir)
        #expect(same.status == 2 && same.stderr == "popsim: replay: --pack r.out is also --output: name another file for one of them\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.out").path))
    }
}
