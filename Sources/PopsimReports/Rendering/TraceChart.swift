import PopsimCore

/// `--format trace`: the Trace Event JSON that Perfetto (ui.perfetto.dev) and chrome://tracing
/// open, so that big runs can be explored in a real trace viewer.
///
/// One process per lane (strategy), one thread (track) per popup and, with several slots, one per
/// slot; each phase (queued, presenting, shown, hiding) is a complete event (`"ph": "X"`, with
/// `args` naming the reason and button of the line that began it, and a slot's popup), each drop
/// or warning an instant event (`"ph": "i"`, its reason in `args`); a flow arrow (`"s"` → `"f"`)
/// joins each wait in the queue to the show that ends it; each broken property of `expect` is an
/// instant on its lane (`"s": "p"`) with its evidence. Times are the run's milliseconds written as
/// microseconds (`ts`), saturating. Keys in a fixed order; ends with a newline.
public enum TraceChart {
    public static func render(lanes: [(label: String, result: RunResult)]) -> String {
        var events: [String] = []
        var flow = 0
        for (l, lane) in lanes.enumerated() {
            let pid = l + 1
            events.append(#"{"name": "process_name", "ph": "M", "pid": \#(pid), "tid": 0, "args": {"name": \#(s(lane.label))}}"#)
            let chart = PopupIntervals(lane.result)
            for (r, row) in (chart.rows + chart.slotRows).enumerated() {
                let tid = r + 1
                events.append(#"{"name": "thread_name", "ph": "M", "pid": \#(pid), "tid": \#(tid), "args": {"name": \#(s(row.popup))}}"#)
                events.append(#"{"name": "thread_sort_index", "ph": "M", "pid": \#(pid), "tid": \#(tid), "args": {"sort_index": \#(tid)}}"#)
                for (i, interval) in row.intervals.enumerated() where interval.end > interval.start {
                    events.append(#"{"name": "\#(interval.kind.rawValue)", "cat": "phase", "ph": "X", "ts": \#(us(interval.start)), "#
                        + #""dur": \#(us(interval.end) - us(interval.start)), "pid": \#(pid), "tid": \#(tid)\#(args(interval))}"#)
                    // The wait that this show ends: an arrow from the enqueue to the show.
                    if interval.kind == .queued, i + 1 < row.intervals.count, row.intervals[i + 1].start == interval.end,
                       row.intervals[i + 1].kind != .queued {
                        flow += 1
                        events.append(#"{"name": "wait", "cat": "wait", "ph": "s", "id": \#(flow), "ts": \#(us(interval.start)), "#
                            + #""pid": \#(pid), "tid": \#(tid)}"#)
                        events.append(#"{"name": "wait", "cat": "wait", "ph": "f", "bp": "e", "id": \#(flow), "ts": \#(us(interval.end)), "#
                            + #""pid": \#(pid), "tid": \#(tid)}"#)
                    }
                }
                for marker in row.markers {
                    events.append(#"{"name": \#(s(marker.label)), "cat": "\#(marker.kind.rawValue)", "ph": "i", "s": "t", "#
                        + #""ts": \#(us(marker.t)), "pid": \#(pid), "tid": \#(tid)\#(marker.reason.map { #", "args": {"reason": \#(s($0))}"# } ?? "")}"#)
                }
            }
            for v in PropertyJudge.verdicts(lane.result) {
                guard let f = v.failure else { continue }
                events.append(#"{"name": \#(s("fails: " + v.expectation.text)), "cat": "property", "ph": "i", "s": "p", "#
                    + #""ts": \#(us(f.at)), "pid": \#(pid), "tid": 0, "args": {"evidence": \#(s(f.text))}}"#)
            }
        }
        return "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// `, "args": {…}` with what began an interval (reason, button, a slot's popup), or nothing.
    static func args(_ interval: PopupIntervals.Interval) -> String {
        var fields: [String] = []
        if let popup = interval.popup { fields.append(#""popup": \#(s(popup))"#) }
        if let reason = interval.reason { fields.append(#""reason": \#(s(reason))"#) }
        if let button = interval.button { fields.append(#""button": \#(s(button))"#) }
        return fields.isEmpty ? "" : #", "args": {\#(fields.joined(separator: ", "))}"#
    }

    /// Milliseconds as microseconds, saturating.
    static func us(_ ms: Int) -> Int {
        let (value, overflow) = ms.multipliedReportingOverflow(by: 1000)
        return overflow ? (ms < 0 ? Int.min : Int.max) : value
    }

    static func s(_ text: String) -> String { JSONValue.literal(text) }
}
