import PopsimCore

/// `--format trace`: the Trace Event JSON that Perfetto (ui.perfetto.dev) and chrome://tracing
/// open, so that big runs can be explored in a real trace viewer.
///
/// One process per lane (strategy), one thread (track) per popup and, with several slots, one per
/// slot; each phase (queued, presenting, shown, hiding) is a complete event (`"ph": "X"`), each
/// drop or warning an instant event (`"ph": "i"`). Times are the run's milliseconds written as
/// microseconds (`ts`), saturating. Keys in a fixed order; ends with a newline.
public enum TraceChart {
    public static func render(lanes: [(label: String, result: RunResult)]) -> String {
        var events: [String] = []
        for (l, lane) in lanes.enumerated() {
            let pid = l + 1
            events.append(#"{"name": "process_name", "ph": "M", "pid": \#(pid), "tid": 0, "args": {"name": \#(s(lane.label))}}"#)
            let chart = PopupIntervals(lane.result)
            for (r, row) in (chart.rows + chart.slotRows).enumerated() {
                let tid = r + 1
                events.append(#"{"name": "thread_name", "ph": "M", "pid": \#(pid), "tid": \#(tid), "args": {"name": \#(s(row.popup))}}"#)
                events.append(#"{"name": "thread_sort_index", "ph": "M", "pid": \#(pid), "tid": \#(tid), "args": {"sort_index": \#(tid)}}"#)
                for interval in row.intervals where interval.end > interval.start {
                    events.append(#"{"name": "\#(interval.kind.rawValue)", "cat": "phase", "ph": "X", "ts": \#(us(interval.start)), "#
                        + #""dur": \#(us(interval.end) - us(interval.start)), "pid": \#(pid), "tid": \#(tid)}"#)
                }
                for marker in row.markers {
                    events.append(#"{"name": \#(s(marker.label)), "cat": "\#(marker.kind.rawValue)", "ph": "i", "s": "t", "#
                        + #""ts": \#(us(marker.t)), "pid": \#(pid), "tid": \#(tid)}"#)
                }
            }
        }
        return "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// Milliseconds as microseconds, saturating.
    static func us(_ ms: Int) -> Int {
        let (value, overflow) = ms.multipliedReportingOverflow(by: 1000)
        return overflow ? (ms < 0 ? Int.min : Int.max) : value
    }

    static func s(_ text: String) -> String { JSONValue.literal(text) }
}
