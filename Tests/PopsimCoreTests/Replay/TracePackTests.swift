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
