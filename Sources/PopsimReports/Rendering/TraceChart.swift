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
            events.append(event("process_name", ph: "M", pid: pid, tid: 0, args: [("name", .text(lane.label))]))
            let chart = PopupIntervals(lane.result)
            for (r, row) in (chart.rows + chart.slotRows).enumerated() {
                let tid = r + 1
                events.append(event("thread_name", ph: "M", pid: pid, tid: tid, args: [("name", .text(row.popup))]))
                events.append(event("thread_sort_index", ph: "M", pid: pid, tid: tid, args: [("sort_index", .number(tid))]))
                for (i, interval) in row.intervals.enumerated() where interval.end > interval.start {
                    events.append(event(interval.kind.rawValue, cat: "phase", ph: "X", ts: us(interval.start), dur: us(interval.end) - us(interval.start),
                                        pid: pid, tid: tid, args: args(interval)))
                    // The wait that this show ends: an arrow from the enqueue to the show.
                    if interval.kind == .queued, i + 1 < row.intervals.count, row.intervals[i + 1].start == interval.end,
                       row.intervals[i + 1].kind != .queued {
                        flow += 1
                        events.append(event("wait", cat: "wait", ph: "s", id: flow, ts: us(interval.start), pid: pid, tid: tid))
                        events.append(event("wait", cat: "wait", ph: "f", bp: "e", id: flow, ts: us(interval.end), pid: pid, tid: tid))
                    }
                }
                for marker in row.markers {
                    events.append(event(marker.label, cat: marker.kind.rawValue, ph: "i", scope: "t", ts: us(marker.t), pid: pid, tid: tid,
                                        args: marker.reason.map { [("reason", .text($0))] } ?? []))
                }
            }
            for v in PropertyJudge.verdicts(lane.result) {
                guard let f = v.failure else { continue }
                events.append(event("fails: " + v.expectation.text, cat: "property", ph: "i", scope: "p", ts: us(f.at), pid: pid, tid: 0,
                                    args: [("evidence", .text(f.text))]))
            }
        }
        var out = JSONObjectWriter()
        out.add("displayTimeUnit", "ms")
        out.add("traceEvents", json: JSONObjectWriter.lines(events, indent: "", closing: ""))
        return out.closed + "\n"
    }

    /// An `args` value.
    enum Arg { case text(String), number(Int) }

    /// One trace event, its keys in the order the format's examples use.
    static func event(_ name: String, cat: String? = nil, ph: String, scope: String? = nil, bp: String? = nil, id: Int? = nil,
                      ts: Int? = nil, dur: Int? = nil, pid: Int, tid: Int, args: [(String, Arg)] = []) -> String {
        var out = JSONObjectWriter()
        out.add("name", name)
        if let cat { out.add("cat", cat) }
        out.add("ph", ph)
        if let scope { out.add("s", scope) }
        if let bp { out.add("bp", bp) }
        if let id { out.add("id", id) }
        if let ts { out.add("ts", ts) }
        if let dur { out.add("dur", dur) }
        out.add("pid", pid)
        out.add("tid", tid)
        if !args.isEmpty {
            var fields = JSONObjectWriter()
            for (key, value) in args {
                switch value {
                case .text(let t): fields.add(key, t)
                case .number(let n): fields.add(key, n)
                }
            }
            out.add("args", json: fields.closed)
        }
        return out.closed
    }

    /// What began an interval (a slot's popup, reason, button), or nothing.
    static func args(_ interval: PopupIntervals.Interval) -> [(String, Arg)] {
        var fields: [(String, Arg)] = []
        if let popup = interval.popup { fields.append(("popup", .text(popup))) }
        if let reason = interval.reason { fields.append(("reason", .text(reason))) }
        if let button = interval.button { fields.append(("button", .text(button))) }
        return fields
    }

    /// Milliseconds as microseconds, saturating.
    static func us(_ ms: Int) -> Int {
        let (value, overflow) = ms.multipliedReportingOverflow(by: 1000)
        return overflow ? (ms < 0 ? Int.min : Int.max) : value
    }

}
