import Foundation
import Testing
import PopsimTestSupport
@testable import PopsimCore

/// A time going back is located at the row's time field and quoted in the trace's unit
/// (issue 66, cause 24): an ISO trace's message named epoch milliseconds, at the user's field.
@Suite("traces: a time going back")
struct TimeGoesBackTests {
    @Test func aTimeGoingBackIsQuotedAsTheTraceWritesTimes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("c.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}}"#.write(toFile: catalog, atomically: true, encoding: .utf8)
        let trace = dir.appendingPathComponent("t.csv").path
        try "user,time,action,popup\nana,2026-11-17T10:30:00+01:00,enqueue,a\nana,2026-11-17T09:29:59.5Z,enqueue,a\n"
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let r = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg", "--time-unit", "iso8601"])
        #expect(r.status == 2)
        #expect(r.stderr == "\(trace):3:5: expected a time no earlier than user \"ana\"'s rows before it, got 2026-11-17T09:29:59.500Z\n", "\(r.stderr)")
        let seconds = dir.appendingPathComponent("s.csv").path
        try "user,time,action,popup\nana,1794785400,enqueue,a\nana,1794785399.25,enqueue,a\n".write(toFile: seconds, atomically: true, encoding: .utf8)
        let s = popsimInProcess(["replay", seconds, "--catalog", catalog, "--strategy", "fg", "--time-unit", "s"])
        #expect(s.stderr == "\(seconds):3:5: expected a time no earlier than user \"ana\"'s rows before it, got 1794785399.250\n", "\(s.stderr)")
    }

    @Test func timesAreWrittenBackInTheirUnit() {
        #expect(TraceTimeText.text(0, unit: .iso8601) == "1970-01-01T00:00:00.000Z")
        #expect(TraceTimeText.text(-1, unit: .iso8601) == "1969-12-31T23:59:59.999Z")
        #expect(TraceTimeText.text(951_782_400_000, unit: .iso8601) == "2000-02-29T00:00:00.000Z")
        #expect(TraceTimeText.text(-500, unit: .s) == "-0.500" && TraceTimeText.text(1500, unit: .s) == "1.500")
        #expect(TraceTimeText.text(-1500, unit: .s) == "-1.500" && TraceTimeText.text(2000, unit: .s) == "2")
        #expect(TraceTimeText.text(42, unit: .ms) == "42")
    }
}
