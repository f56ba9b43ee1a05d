import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Reading a team's export as it is (issue 40): what an event name means, the time zone of times
/// written without one, and the mapping file's located errors.
@Suite("replay: trace mappings")
struct TraceMappingTests {
    @Test func meaningsReadAsWritten() {
        #expect(TraceMapping.meaning("enqueue") == .verb(.action(.enqueue)))
        #expect(TraceMapping.meaning("shown") == .verb(.shown))
        #expect(TraceMapping.meaning("set screen") == .setVariable("screen"))
        #expect(TraceMapping.meaning("set foreground=false") == .verbWith(.action(.set), value: "foreground=false"))
        #expect(TraceMapping.meaning("dismissed ok") == .verbWith(.dismissed, value: "ok"))
        #expect(TraceMapping.meaning("show") == nil && TraceMapping.meaning("") == nil)
    }

    @Test func timeZonesReadAsOffsets() {
        #expect(TraceMapping.timeZone("UTC") == 0 && TraceMapping.timeZone("Z") == 0)
        #expect(TraceMapping.timeZone("+01:00") == 60 && TraceMapping.timeZone("-05:30") == -330)
        for bad in ["Europe/Paris", "+1", "+01:60", "+24:00", "01:00", "+0a:00"] { #expect(TraceMapping.timeZone(bad) == nil, "\(bad)") }
    }

    /// A time without a zone is UTC, or the trace's zone; a written zone wins over it.
    @Test func isoTimesWithoutAZone() {
        #expect(TraceTime.milliseconds("2026-11-20T08:00:00", unit: .iso8601) == 1_795_161_600_000)
        #expect(TraceTime.milliseconds("2026-11-20 08:00:00.250", unit: .iso8601) == 1_795_161_600_250)
        var text = "2026-11-20T09:00:00"
        #expect(text.withUTF8 { TraceTime.milliseconds($0, unit: .iso8601, zoneMinutes: 60) } == 1_795_161_600_000)
        text = "2026-11-20T08:00:00Z"
        #expect(text.withUTF8 { TraceTime.milliseconds($0, unit: .iso8601, zoneMinutes: 60) } == 1_795_161_600_000)
        #expect(TraceTime.milliseconds("2026-11-20T08:00", unit: .iso8601) == nil)
        #expect(TraceTime.milliseconds("2026-11-20T08:00:00+01", unit: .iso8601) == nil)
    }

    static func load(_ text: String) throws -> Result<TraceLayout, LoadErrors> {
        let catalog = try loadScenario(#"{"popsim": 1, "state": {"screen": "home"}, "popups": {"upgrade": {}, "rate": {}}}"#).get()
        return TraceMappingFile.load(Array(text.utf8), file: "m.json", catalog: catalog, into: TraceLayout(format: .csv))
    }

    @Test func aMappingFileSetsTheLayout() throws {
        let layout = try Self.load(#"""
            {"columns": {"user": "uid", "time": "ts"}, "time": "iso8601", "timeZone": "+01:00",
             "events": {"popup_requested": "enqueue", "screen_view": "set screen"}, "popups": {"upgrade_v2": "upgrade"}}
            """#).get()
        #expect(layout.name(of: .user) == "uid" && layout.name(of: .time) == "ts" && layout.name(of: .action) == "action")
        #expect(layout.timeUnit == .iso8601 && layout.mapping.timeZoneMinutes == 60)
        #expect(layout.mapping.events.map(\.name) == ["popup_requested", "screen_view"])
        #expect(layout.mapping.events.map(\.meaning) == [.verb(.action(.enqueue)), .setVariable("screen")])
        #expect(layout.mapping.popups.map(\.popup) == ["upgrade"])
    }

    /// Every problem at once, located, with a suggestion where a name is close.
    @Test func aMappingFilesErrorsAreLocated() throws {
        guard case .failure(let errors) = try Self.load(#"""
            {"colums": {},
             "columns": {"usr": "uid"},
             "time": "iso",
             "timeZone": "Europe/Paris",
             "events": {"a": "enqeue", "b": "set scren"},
             "popups": {"x": "upgrad"}}
            """#) else { Issue.record("expected errors"); return }
        #expect(errors.errors.map(\.line) == [
            #"m.json:1:2: colums: unknown key "colums"; did you mean 'columns'?"#,
            #"m.json:2:14: columns.usr: expected one of user, time, action, popup, value; got "usr"; did you mean 'user'?"#,
            #"m.json:3:10: time: expected one of ms, s, iso8601; got "iso""#,
            #"m.json:4:14: timeZone: expected UTC, Z or an offset like +01:00 (a named zone with summer time: convert the times in the export), got "Europe/Paris""#,
            #"m.json:5:18: events.a: expected one of \#(TraceVerb.all.map(\.word).joined(separator: ", ")); got "enqeue"; did you mean 'enqueue'? (\#(TraceMappingFile.meaningNote))"#,
            #"m.json:5:33: events.b: unknown state name "scren" (declare it in "state"); did you mean 'screen'?"#,
            #"m.json:6:18: popups.x: unknown popup "upgrad"; did you mean 'upgrade'?"#,
        ])
    }
}
