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
                           unmapped: [("zeta", 4), ("Screen Viewed", 7), ("é", 1)], users: 10,
                           blocks: [.init(bytes: 700, checksum: 0xFEED_0000_0000_BEEF), .init(bytes: 20, checksum: 0)])
    }

    @Test func theManifestReadsBackAsWritten() {
        let m = Self.manifest()
        let back = TracePack.Manifest.read(Array(m.json.utf8))
        #expect(back == m)
        #expect(back?.unmapped.map(\.event) == ["Screen Viewed", "zeta", "é"])
        #expect(back?.reading == m.reading && back?.blocks == m.blocks && back?.hasProduction == true && back?.trace == "week \"1\".csv")
        #expect(back?.blocks.first?.checksum == 0xFEED_0000_0000_BEEF)
        // Another version, a missing field, a negative count, a count past `maxCount` (a sum of
        // two would overflow), an event twice, a block of no users, no user, not JSON: nil.
        for (from, to) in [("\"popsimPack\": 1", "\"popsimPack\": 2"), ("\"rows\": 99, ", ""), ("\"badRows\": 2", "\"badRows\": -2"),
                           ("\"maxErrors\": 3", "\"maxErrors\": 9223372036854775807"), ("\"badRows\": 2", "\"badRows\": 17592186044417"),
                           ("\"zeta\": 4", "\"é\": 4"), ("\"bytes\": 20", "\"bytes\": 5"), ("\"users\": 10", "\"users\": 0"),
                           ("\"checksum\": \"0\"", "\"checksum\": \"x\""), ("{", "[")] {
            let text = m.json.replacingOccurrences(of: from, with: to)
            #expect(text != m.json, "\(from)")
            #expect(TracePack.Manifest.read(Array(text.utf8)) == nil, "\(from)")
        }
    }

    @Test func theFooterPointsAtTheManifestJustBeforeIt() {
        let footer = TracePack.footer(offset: 1000, length: 300, checksum: .max - 1)
        #expect(footer.count == TracePack.footerBytes && Array(footer.suffix(4)) == TracePack.magic)
        let place = TracePack.manifestPlace(footer: footer, fileBytes: 1328)
        #expect(place?.offset == 1000 && place?.length == 300 && place?.checksum == .max - 1)
        // Anywhere else, past the file, before the header, or not a footer: nil, never a trap.
        for size in [1327, 1329, 0, 3, Int.max] { #expect(TracePack.manifestPlace(footer: footer, fileBytes: size) == nil, "\(size)") }
        #expect(TracePack.manifestPlace(footer: TracePack.footer(offset: 2, length: 2, checksum: 0), fileBytes: 32) == nil)
        #expect(TracePack.manifestPlace(footer: TracePack.footer(offset: 0, length: .max, checksum: 0), fileBytes: 100) == nil)
        var wrong = footer
        wrong[27] ^= 1
        #expect(TracePack.manifestPlace(footer: wrong, fileBytes: 1328) == nil)
        #expect(TracePack.sniffs(TracePack.header) && !TracePack.sniffs(Array("PSP".utf8)) && !TracePack.sniffs(PartitionCodec.header))
    }

    /// A checksum fed in pieces of any size is the one of the whole; any byte changed changes it.
    @Test func theChecksumIsOfTheBytesWhateverThePieces() {
        var bytes: [UInt8] = []
        var x: UInt64 = 7
        for _ in 0..<100 {
            x = x &* 6_364_136_223_846_793_005 &+ 1
            bytes.append(UInt8(truncatingIfNeeded: x >> 40))
        }
        let whole = TracePack.Checksum.of(bytes)
        for piece in [1, 3, 7, 8, 9, 64, 100] {
            var c = TracePack.Checksum()
            var at = 0
            while at < bytes.count {
                let end = min(bytes.count, at + piece)
                bytes[at..<end].withUnsafeBufferPointer { c.add($0) }
                at = end
            }
            #expect(c.value == whole, "\(piece)")
        }
        for k in [0, 7, 8, 63, 95, 99] {
            var changed = bytes
            changed[k] ^= 0x10
            #expect(TracePack.Checksum.of(changed) != whole, "\(k)")
        }
        #expect(TracePack.Checksum.of(Array(bytes.dropLast())) != whole && TracePack.Checksum.of(bytes + [0]) != whole)
    }

    /// Reads `bytes` as a pack's block against the vocabulary tests' catalog: whether they read
    /// back, and the runs read.
    static func read(_ bytes: [UInt8], checked: Bool = true) throws -> (ok: Bool, runs: Int) {
        let r = try readBack(bytes, checked: checked)
        return (r.ok, r.runs.count)
    }

    /// The same, with each run's rows as text (verb, popup, value and action as read).
    static func readBack(_ bytes: [UInt8], checked: Bool = true, piece: Int = .max) throws -> (ok: Bool, runs: [[String]]) {
        let catalog = try loadScenario(TraceVocabularyTests.catalogText).get()
        var reader = PartitionCodec.Reader(state: catalog.state.initial, popups: checked ? catalog.popups.count : nil)
        var values = TraceValues()
        var runs: [[String]] = []
        var ok = true
        var at = 0
        while ok, at < bytes.count {
            let end = min(bytes.count, at + min(piece, bytes.count))
            var read: [[(time: Int, entry: PackedEntry)]?] = []
            ok = bytes[at..<end].withUnsafeBufferPointer { reader.feed($0, values: &values) { record in
                guard case .run(_, _, _, let rows) = record else { return read.append(nil) }
                read.append(rows)
            } }
            for rows in read {
                runs.append(rows.map { rows in rows.map { r in
                    "\(r.time) \(r.entry.verb.map(\.word) ?? "?") \(r.entry.popup) " + (r.entry.holdsSetting
                        ? values.setting(r.entry.value).map { "\($0.0.index)=\(TraceValues.raw($0.1))" } ?? "-"
                        : values.text(r.entry.value) ?? "-") + " " + (r.entry.action(values).map { String(describing: $0) } ?? "no action")
                } } ?? ["a row record"])
            }
            at = end
        }
        return (ok && reader.isAtEnd, runs)
    }

    static func numbered(_ rows: [TimedEntry], values: TraceValues, users: Int = 1) -> [UInt8] {
        var w = PackBlockWriter()
        for u in 0..<users { Array("u\(u)".utf8).withUnsafeBufferPointer { w.add(user: $0, firstRow: u + 1, rows: rows, values: values) } }
        return w.bytes
    }

    static func block(_ rows: [(time: Int, entry: PackedEntry)], values: TraceValues) -> [UInt8] {
        var out = PartitionCodec.header
        Array("u1".utf8).withUnsafeBufferPointer { PartitionCodec.encodeRun(user: $0, firstRow: 1, bad: false, rows: rows, values: values, into: &out) }
        return out
    }

    /// Every action kind and both observations, as a trace gives them, pass the check.
    @Test func everyRowATraceGivesPassesTheCheck() throws {
        let catalog = try loadScenario(TraceVocabularyTests.catalogText).get()
        let text = TraceVocabularyTests.everyKindTrace(time: { $0 * 10 }, then: "u1,20000,shown,a,\nu1,20001,dismissed,a,ok\nu1,20002,dismissed,b,\n")
        let g = TraceVocabularyTests.gathered(text, format: .csv, catalog: catalog)
        #expect(g.errors.isEmpty && g.rows.count == ActionKind.allCases.count + 3)
        let rows = g.rows.map { (time: $0.time, entry: $0.entry) }
        #expect(try Self.read(Self.block(rows, values: g.values)) == (true, 1))
        for r in rows { #expect(try Self.read(Self.block([r], values: g.values)) == (true, 1), "\(String(describing: r.entry.verb))") }
        // A block with a table of values (what --pack writes): the same rows, values and actions
        // as the run with texts, for every user, read in pieces of any size.
        let texts = try Self.readBack(Self.block(rows, values: g.values))
        let numbered = Self.numbered(g.rows, values: g.values, users: 3)
        #expect(numbered.count < 3 * (Self.block(rows, values: g.values).count - 5))
        for piece in [1, 2, 7, 64, Int.max] {
            let back = try Self.readBack(numbered, piece: piece)
            #expect(back.ok && back.runs == Array(repeating: texts.runs[0], count: 3), "\(piece)")
        }
        #expect(texts.runs[0].contains { $0.contains(" 1=3 ") } && texts.runs[0].contains { $0.contains(" cart ") }, "\(texts.runs)")
        #expect(texts.runs[0].filter { $0.hasSuffix("no action") }.count == 3, "\(texts.runs)")
    }

    /// A numbered value must be in the block's table, and of its row's kind: a setting of the
    /// row's variable for `set`, a text for any other.
    @Test func aNumberedValueIsOfItsRowsKind() throws {
        let catalog = try loadScenario(TraceVocabularyTests.catalogText).get()
        let g = TraceVocabularyTests.gathered("user,time,action,popup,value\nu1,0,set,,screen=cart\nu1,5,press,a,ok\n", format: .csv, catalog: catalog)
        #expect(g.errors.isEmpty && g.rows.count == 2)
        let good = Self.numbered(g.rows, values: g.values)
        let back = try Self.readBack(good)
        #expect(back.ok && back.runs.count == 1 && back.runs[0].count == 2)
        #expect(back.runs.first?.first?.hasPrefix("0 set 0 0=cart ") == true, "\(back.runs)")
        #expect(back.runs.first?.last?.hasPrefix("5 press 0 ok ") == true, "\(back.runs)")
        // The block's last bytes are the second row's value number (2: the table's second value,
        // "ok"); the first row's is 1 (the setting). Swapped, out of the table, or the set row
        // given the text: refused.
        let last = good.count - 1
        #expect(good[last] == 2)
        for bad: UInt8 in [1, 3, 9] {
            var b = good
            b[last] = bad
            #expect(try Self.read(b).ok == false, "\(bad)")
        }
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
        // A user left out, or whose first row is 0 or past any trace's: refused.
        for (firstRow, bad) in [(1, true), (0, false), (Int.max, false)] {
            var out = PartitionCodec.header
            Array("u1".utf8).withUnsafeBufferPointer {
                PartitionCodec.encodeRun(user: $0, firstRow: firstRow, bad: bad, rows: [(5, PackedEntry(op: enqueue, popup: 1, value: -1))],
                                         values: values, into: &out)
            }
            #expect(try Self.read(out).ok == false, "\(firstRow) \(bad)")
            #expect(try Self.read(out, checked: false).ok == true, "\(firstRow) \(bad)")
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
