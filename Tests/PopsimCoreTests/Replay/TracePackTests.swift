import Testing
@testable import PopsimCore
import PopsimTestSupport

/// A pack's parts: the manifest and footer read back as written and refuse what they are not;
/// the check of a pack's records (`PartitionCodec.Reader(popups:)`) lets every row a trace can
/// give through and refuses what would make a run popsim cannot replay.
@Suite("replay: packs, the format")
struct TracePackTests {
    static func manifest() -> TracePack.Manifest {
        TracePack.Manifest(trace: "week \"1\".csv", traceBytes: 1234, traceDigest: "sha256:ab", catalogDigest: "sha256:cd",
                           reading: ["format csv", "time ms zone 60", "columns user\u{1F}time", "quoted line breaks 1", "event a\u{1F}b"],
                           maxErrors: 3, rows: 99, badRows: 2, userErrors: 1, skippedUsers: 2, hasProduction: true, hasTriggers: false,
                           unmapped: [("zeta", 4), ("Screen Viewed", 7), ("é", 1)], users: 10, blocks: [700, 20])
    }

    @Test func theManifestReadsBackAsWritten() {
        let m = Self.manifest()
        let back = TracePack.Manifest.read(Array(m.json.utf8))
        #expect(back == m)
        #expect(back?.unmapped.map(\.event) == ["Screen Viewed", "zeta", "é"])
        #expect(back?.reading == m.reading && back?.blocks == [700, 20] && back?.hasProduction == true && back?.trace == "week \"1\".csv")
        // Another version, a missing field, a negative count, a block of no bytes, not JSON: nil.
        for (from, to) in [("\"popsimPack\": 1", "\"popsimPack\": 2"), ("\"rows\": 99, ", ""), ("\"badRows\": 2", "\"badRows\": -2"),
                           ("[700, 20]", "[700, 0]"), ("{", "[")] {
            let text = m.json.replacingOccurrences(of: from, with: to)
            #expect(text != m.json, "\(from)")
            #expect(TracePack.Manifest.read(Array(text.utf8)) == nil, "\(from)")
        }
    }

    @Test func theFooterPointsAtTheManifestJustBeforeIt() {
        let footer = TracePack.footer(offset: 1000, length: 300)
        #expect(footer.count == TracePack.footerBytes && Array(footer.suffix(4)) == TracePack.magic)
        #expect(TracePack.manifestPlace(footer: footer, fileBytes: 1320).map { [$0.offset, $0.length] } == [1000, 300])
        // Anywhere else, past the file, before the header, or not a footer: nil, never a trap.
        for size in [1319, 1321, 0, 3, Int.max] { #expect(TracePack.manifestPlace(footer: footer, fileBytes: size) == nil, "\(size)") }
        #expect(TracePack.manifestPlace(footer: TracePack.footer(offset: 2, length: 2), fileBytes: 24) == nil)
        #expect(TracePack.manifestPlace(footer: TracePack.footer(offset: 0, length: .max), fileBytes: 100) == nil)
        var wrong = footer
        wrong[19] ^= 1
        #expect(TracePack.manifestPlace(footer: wrong, fileBytes: 1320) == nil)
        #expect(TracePack.sniffs(TracePack.header) && !TracePack.sniffs(Array("PSP".utf8)) && !TracePack.sniffs(PartitionCodec.header))
    }

    /// Reads `bytes` as a pack's block against the vocabulary tests' catalog: whether they read
    /// back, and the runs read.
    static func read(_ bytes: [UInt8], checked: Bool = true) throws -> (ok: Bool, runs: Int) {
        let catalog = try loadScenario(TraceVocabularyTests.catalogText).get()
        var reader = PartitionCodec.Reader(state: catalog.state.initial, popups: checked ? catalog.popups.count : nil)
        var values = TraceValues()
        var runs = 0
        let ok = bytes.withUnsafeBufferPointer { reader.feed($0, values: &values) { _ in runs += 1 } }
        return (ok && reader.isAtEnd, runs)
    }

    static func block(_ rows: [(time: Int, entry: PackedEntry)], values: TraceValues) -> [UInt8] {
        var out = PartitionCodec.header
        Array("u1".utf8).withUnsafeBufferPointer { PartitionCodec.encodeRun(user: $0, firstRow: 1, bad: false, rows: rows, values: values, into: &out) }
        return out
    }

    /// Every action kind and both observations, as a trace gives them, pass the check.
    @Test func everyRowATraceGivesPassesTheCheck() throws {
        let catalog = try loadScenario(TraceVocabularyTests.catalogText).get()
        var text = "user,time,action,popup,value\n"
        for (k, kind) in ActionKind.allCases.enumerated() {
            let (popup, value, _) = TraceVocabularyTests.example(kind)
            text += "u1,\(k * 10),\(kind.keyword),\(popup),\(value)\n"
        }
        text += "u1,20000,shown,a,\nu1,20001,dismissed,a,ok\nu1,20002,dismissed,b,\n"
        let g = TraceVocabularyTests.gathered(text, format: .csv, catalog: catalog)
        #expect(g.errors.isEmpty && g.rows.count == ActionKind.allCases.count + 3)
        let rows = g.rows.map { (time: $0.time, entry: $0.entry) }
        #expect(try Self.read(Self.block(rows, values: g.values)) == (true, 1))
        for r in rows { #expect(try Self.read(Self.block([r], values: g.values)) == (true, 1), "\(String(describing: r.entry.verb))") }
    }

    /// What a forged block could hold: each refused by the check (and each read without it,
    /// as a temporary partition is, to show that the check is what refuses it).
    @Test func whatAReplayCannotRunIsRefused() throws {
        let values = TraceValues()
        let enqueue = ActionKind.enqueue.ordinal, shown = TraceVerb.shown.ordinal
        let forged: [(String, [(time: Int, entry: PackedEntry)])] = [
            ("a popup past the catalog's", [(0, PackedEntry(op: enqueue, popup: 2, value: -1))]),
            ("no popup for enqueue", [(0, PackedEntry(op: enqueue, popup: -1, value: -1))]),
            ("a shown row of no popup", [(0, PackedEntry(op: shown, popup: -1, value: -1))]),
            ("a shown row past the catalog", [(0, PackedEntry(op: shown, popup: 9, value: -1))]),
            ("time going back", [(10, PackedEntry(op: enqueue, popup: 0, value: -1)), (9, PackedEntry(op: enqueue, popup: 1, value: -1))]),
            ("a time past 2^62 ms", [(1 << 62, PackedEntry(op: enqueue, popup: 0, value: -1))]),
            ("no rows", []),
        ]
        for (why, rows) in forged {
            let bytes = Self.block(rows, values: values)
            #expect(try Self.read(bytes).ok == false, "\(why)")
            #expect(try Self.read(bytes, checked: false) == (true, 1), "\(why)")
        }
        // A row record (what a partition holds after spilling began) is not a pack's.
        var row = PartitionCodec.header
        Array("u1".utf8).withUnsafeBufferPointer {
            PartitionCodec.encodeRow(user: $0, row: 1, location: SourceLocation(line: 2, column: 1), time: 0,
                                     entry: PackedEntry(op: enqueue, popup: 0, value: -1), values: values, into: &row)
        }
        #expect(try Self.read(row).ok == false)
        #expect(try Self.read(row, checked: false) == (true, 1))
        // A good one, for contrast.
        #expect(try Self.read(Self.block([(5, PackedEntry(op: enqueue, popup: 1, value: -1))], values: values)) == (true, 1))
    }
}
