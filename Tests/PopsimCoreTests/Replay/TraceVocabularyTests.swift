import Testing
@testable import PopsimCore
@testable import PopsimReports
import PopsimTestSupport

/// The one decoder against the vocabulary: every `ActionKind` (and both observations), written as
/// a trace row — plain CSV, quoted CSV, JSON Lines — decodes to the action the scenario loader
/// makes of the same event, through `PackedEntry` and back; and a gathered row survives the
/// temporary partitions' encoding.
@Suite("replay: the decoder and the codec against the vocabulary")
struct TraceVocabularyTests {
    static let catalogText = #"""
        {"popsim": 1, "strategy": "sonner", "state": {"screen": "home", "n": 0, "vip": false},
         "popups": {"a": {"then": {"ok": []}}, "b": {}}}
        """#

    /// Per kind: the row's (popup, value) and the scenario event's JSON for the same action.
    static func example(_ kind: ActionKind) -> (popup: String, value: String, event: String) {
        switch kind.argument {
        case .popups, .popup: return ("a", "", #""\#(kind.keyword)": "a""#)
        case .press: return ("a", "ok", #""press": {"popup": "a", "button": "ok"}"#)
        case .state: return ("", "n=3", #""set": {"n": 3}"#)
        case .flag: return ("", "", #""\#(kind.keyword)": true"#)
        case .screen: return ("", "cart", #""\#(kind.keyword)": "cart""#)
        case .timerTarget: return ("b", "", #""\#(kind.keyword)": "b""#)
        case .priority: return ("", "high", #""\#(kind.keyword)": "high""#)
        }
    }

    /// The trace of one row of `kind` in `format` (quoted: every CSV field in quotes).
    static func trace(_ kind: String, _ popup: String, _ value: String, format: TraceFormat, quoted: Bool) -> String {
        if format == .jsonLines {
            var members = [#""user": "u1""#, #""time": 5"#, #""action": "\#(kind)""#]
            if !popup.isEmpty { members.append(#""popup": "\#(popup)""#) }
            if !value.isEmpty { members.append(#""value": "\#(value)""#) }
            return "{" + members.joined(separator: ", ") + "}\n"
        }
        let fields = ["u1", "5", kind, popup, value].map { quoted ? "\"\($0)\"" : $0 }
        return "user,time,action,popup,value\n" + fields.joined(separator: ",") + "\n"
    }

    /// A CSV trace of user u1 with a row of every action kind (the k-th at `time(k)`), then `tail`.
    static func everyKindTrace(time: (Int) -> Int, then tail: String) -> String {
        var text = "user,time,action,popup,value\n"
        for (k, kind) in ActionKind.allCases.enumerated() {
            let (popup, value, _) = example(kind)
            text += "u1,\(time(k)),\(kind.keyword),\(popup),\(value)\n"
        }
        return text + tail
    }

    /// The rows a trace gathers into, with the values they point at.
    static func gathered(_ text: String, format: TraceFormat, catalog: Scenario) -> (rows: [TimedEntry], values: TraceValues, errors: [String]) {
        let layout = TraceLayout(format: format)
        var g = UserGatherer(decoder: TraceRowDecoder(file: "t", layout: layout, catalog: catalog), worker: 0, workers: 1, shard: nil,
                             promisedGrouped: false, maxErrors: 10)
        var reader = format.makeReader(layout, file: "t")
        Array(text.utf8).withUnsafeBufferPointer { reader.feed($0); g.read(&reader) }
        reader.finish()
        g.read(&reader)
        var rows: [TimedEntry] = []
        if g.heldUsers > 0 { g.rows(of: 0, into: &rows) }
        return (rows, g.values, g.errors.map(TraceErrorText.line))
    }

    @Test(arguments: ActionKind.allCases)
    func everyActionDecodesAsTheLoaderReadsIt(_ kind: ActionKind) throws {
        let catalog = try loadScenario(Self.catalogText).get()
        let (popup, value, event) = Self.example(kind)
        let scenario = try loadScenario(Self.catalogText.replacingOccurrences(of: #""popups""#, with: #""events": [{"at": 0, \#(event)}], "popups""#)).get()
        let expected = String(describing: scenario.events[0].action)
        for (format, quoted) in [(TraceFormat.csv, false), (.csv, true), (.jsonLines, false)] {
            let (rows, values, errors) = Self.gathered(Self.trace(kind.keyword, popup, value, format: format, quoted: quoted), format: format, catalog: catalog)
            #expect(errors.isEmpty, "\(kind) \(format) \(quoted): \(errors)")
            #expect(rows.count == 1 && rows[0].entry.verb == .action(kind))
            #expect(rows.first.flatMap { $0.entry.action(values) }.map { String(describing: $0) } == expected, "\(kind) \(format) \(quoted)")
            // Into a partition and back: the same action.
            let back = Self.throughPartition(rows, values, catalog: catalog)
            #expect(back.first.flatMap { $0.entry.action(back.values) }.map { String(describing: $0) } == expected, "\(kind) partition")
        }
    }

    /// A verb's one byte and back, for every byte: the kinds by their ordinal, then `shown` and
    /// `dismissed`, nothing past them (`ActionKind(ordinal:)` and `count` against `allCases`).
    @Test func everyOrdinalReadsBackAsItsVerb() {
        #expect(Int(ActionKind.count) == ActionKind.allCases.count)
        for kind in ActionKind.allCases { #expect(ActionKind(ordinal: kind.ordinal) == kind) }
        for byte in 0...255 {
            let expected: TraceVerb? = byte < TraceVerb.all.count ? TraceVerb.all[byte] : nil
            #expect(TraceVerb(ordinal: UInt8(byte)) == expected, "\(byte)")
            if let verb = expected { #expect(verb.ordinal == UInt8(byte)) }
        }
    }

    @Test func observationsCarryTheirPopupAndButton() throws {
        let catalog = try loadScenario(Self.catalogText).get()
        let text = "user,time,action,popup,value\nu1,0,shown,a,\nu1,300,dismissed,a,ok\nu1,400,dismissed,b,\n"
        let (rows, values, errors) = Self.gathered(text, format: .csv, catalog: catalog)
        #expect(errors.isEmpty)
        #expect(rows.map { $0.entry.verb } == [.shown, .dismissed, .dismissed])
        #expect(rows.map { $0.entry.popupID } == [PopupID(0), PopupID(0), PopupID(1)])
        #expect(values.text(rows[1].entry.value) == "ok" && rows[2].entry.value == -1)
        #expect(rows.allSatisfy { $0.entry.action(values) == nil })
    }

    /// Rows as a run record, read back against the catalog alone.
    static func throughPartition(_ rows: [TimedEntry], _ values: TraceValues, catalog: Scenario) -> (first: TimedEntry?, values: TraceValues) {
        var out = PartitionCodec.header
        let user = Array("u1".utf8)
        user.withUnsafeBufferPointer { u in
            PartitionCodec.encodeRun(user: u, firstRow: 2, bad: false, rows: rows.map { ($0.time, $0.entry) }, values: values, into: &out)
        }
        var reader = PartitionCodec.Reader(state: catalog.state.initial)
        var back = TraceValues()
        var first: TimedEntry?
        _ = out.withUnsafeBufferPointer { bytes in
            reader.feed(bytes, values: &back) { record in
                if case .run(_, _, _, let rows) = record, let r = rows.first { first = TimedEntry(time: r.time, entry: r.entry) }
            }
        }
        return (first, back)
    }

    /// Every record a trace can give, cut into pieces of any size, reads back as written; bytes
    /// that are not popsim's encoding are refused, never read as rows.
    @Test func partitionsRoundTripInAnyPieces() throws {
        let catalog = try loadScenario(Self.catalogText).get()
        let text = Self.everyKindTrace(time: { -5_000 + $0 * 977 }, then: "u1,20000,shown,a,\nu1,20001,dismissed,a,ok\n")
        let g = Self.gathered(text, format: .csv, catalog: catalog)
        #expect(g.errors.isEmpty && g.rows.count == ActionKind.allCases.count + 2)
        let values = g.values
        let rows = g.rows.map { (time: $0.time, entry: $0.entry) }
        var bytes = PartitionCodec.header
        let users = ["u1", "ü2", String(repeating: "x", count: 300)]
        for (i, u) in users.enumerated() {
            let id = Array(u.utf8)
            id.withUnsafeBufferPointer { user in
                PartitionCodec.encodeRun(user: user, firstRow: i + 1, bad: i == 1, rows: rows, values: values, into: &bytes)
                for (k, r) in rows.enumerated() {
                    PartitionCodec.encodeRow(user: user, row: 100 + k, location: SourceLocation(line: 200 + k, column: 1 + k % 3),
                                             time: r.time, entry: r.entry, values: values, into: &bytes)
                }
            }
        }
        func read(_ piece: Int) -> [String] {
            var reader = PartitionCodec.Reader(state: catalog.state.initial)
            var back = TraceValues()
            var seen: [(String, [TimedEntry])] = []
            var at = 0
            while at < bytes.count {
                let end = min(bytes.count, at + piece)
                let ok = bytes[at..<end].withUnsafeBufferPointer { reader.feed($0, values: &back) { record in
                    switch record {
                    case .run(let user, let firstRow, let bad, let rows):
                        seen.append(("run \(String(decoding: user, as: UTF8.self)) \(firstRow) \(bad)", rows.map { TimedEntry(time: $0.time, entry: $0.entry) }))
                    case .row(let user, let row, let location, let time, let entry):
                        seen.append(("row \(String(decoding: user, as: UTF8.self)) \(row) \(location)", [TimedEntry(time: time, entry: entry)]))
                    }
                } }
                #expect(ok)
                at = end
            }
            #expect(reader.isAtEnd)
            return seen.map { head, rows in
                head + " " + rows.map { "\($0.time):\($0.entry.verb.map { "\($0)" } ?? "?"):\($0.entry.action(back).map { String(describing: $0) } ?? "-")" }.joined(separator: ",")
            }
        }
        let whole = read(bytes.count)
        #expect(whole.count == users.count * (1 + rows.count))
        for piece in [1, 2, 3, 7, 64, 1000] { #expect(read(piece) == whole, "pieces of \(piece)") }
        // Not popsim's: refused.
        var reader = PartitionCodec.Reader(state: catalog.state.initial)
        var back = TraceValues()
        let garbage: [UInt8] = Array("PSPT".utf8) + [9, 1, 2, 3]
        #expect(garbage.withUnsafeBufferPointer { reader.feed($0, values: &back) { _ in } } == false)
    }
}
