import PopsimCore

/// `--format html`: a page to explore a run in a browser. Above the chart, each run's options and
/// summary; a time axis that stays in view while the page scrolls (round ticks, redrawn on zoom);
/// one collapsible section per strategy with a row per popup (names cut with an ellipsis, the full
/// name on hover) and, with several slots, a row per slot; zoom (wheel, `+`/`-`) and pan (drag) on
/// the time axis; every block and marker tells its details on hover. The page uses its full width.
///
/// Contract: the same run gives the same bytes (the script only moves the view); every number in
/// the markup is an integer; it works without the script, at full extent.
public enum HTMLChart {
    /// Plot coordinates: the run's whole time span is `units` wide.
    static let units = 100_000
    static let rowHeight = 18, rowStep = 22

    public static func render(title: String, file: String, lanes: [(label: String, result: RunResult)]) -> String {
        let charts = lanes.map { ($0.label, $0.result, PopupIntervals($0.result)) }
        let end = max(1, charts.map(\.2.end).max() ?? 1)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(e(title))</title>\n<style>\n\(style)</style>\n</head>\n<body data-end=\"\(end)\">\n"
        let anyBroken = charts.contains { PropertyJudge.verdicts($0.1).contains { !$0.holds } }
        out += "<header>\n<h1>\(e(title))</h1>\n<p class=\"file\">\(e(file))</p>\n" + runsTable(charts.map { ($0.0, $0.1) })
            + legend(slots: charts.contains { !$0.2.slotRows.isEmpty }, broken: anyBroken)
        out += "<p class=\"help\">Wheel or <kbd>+</kbd> <kbd>-</kbd> to zoom the time axis, drag to pan, <kbd>0</kbd> to reset; "
            + "hover a block for its details; click a strategy to fold it. "
            + "<button id=\"zoom-in\">+</button> <button id=\"zoom-out\">-</button> <button id=\"reset\">reset</button></p>\n</header>\n"
        out += "<div class=\"axis\"><div class=\"gutter\"></div><div class=\"ticks\" id=\"ticks\">\n"
        let ticks = TimeTicks.ticks(end: end)
        for (t, label) in zip(ticks, TimeTicks.labels(ticks)) {
            out += "<span style=\"left: \(Scale.map(t, 1000, end) / 10).\(Scale.map(t, 1000, end) % 10)%\">\(label)</span>\n"
        }
        out += "</div></div>\n<main>\n"
        for (label, result, chart) in charts {
            out += lane(label, chart, end: end, broken: PropertyJudge.verdicts(result).filter { !$0.holds }, named: charts.count > 1)
        }
        return out + "</main>\n<script>\n\(script)</script>\n</body>\n</html>\n"
    }

    static func runsTable(_ runs: [(String, RunResult)]) -> String {
        var out = "<table class=\"runs\">\n<tr><th>strategy</th><th>options</th><th>shown</th><th>dropped</th><th>pending</th>"
            + "<th>warnings</th><th>end</th></tr>\n"
        for (label, result) in runs {
            let s = Summary(result)
            let options = result.options.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            out += "<tr><td>\(e(label))</td><td>\(e(options))</td><td>\(s.shown)</td><td>\(s.dropped)</td><td>\(s.pending)</td>"
                + "<td>\(s.warnings)</td><td>\(s.end) ms</td></tr>\n"
        }
        return out + "</table>\n"
    }

    static func legend(slots: Bool, broken: Bool = false) -> String {
        var out = "<p class=\"legend\">"
        for kind in PopupIntervals.Kind.allCases { out += "<span class=\"key \(kind.rawValue)\"></span> \(kind.rawValue) " }
        out += "<span class=\"key drop\"></span> drop <span class=\"key warning\"></span> warning"
        if broken { out += " <span class=\"key broken\"></span> property broken (its evidence under the strategy's name)" }
        if slots { out += " · <b>slot</b> rows: what each of the screen's slots held (a row beyond the slots means an overlap)" }
        return out + "</p>\n"
    }

    /// One strategy's section; `named`: with several lanes every row names the strategy too.
    static func lane(_ label: String, _ chart: PopupIntervals, end: Int, broken: [PropertyVerdict] = [], named: Bool = false) -> String {
        let rows = chart.rows + chart.slotRows
        let height = max(1, rows.count * rowStep)
        var names = "", plot = "", labels = ""
        for (i, row) in rows.enumerated() {
            let slot = i >= chart.rows.count
            let laneName = named ? "<span class=\"lane-name\">\(e(label))</span>" : ""
            names += "<div class=\"name\(slot ? " slot" : "")\" title=\"\(e(row.popup))\(named ? " (" + e(label) + ")" : "")\">"
                + "\(laneName)\(e(row.popup))</div>\n"
            let y = i * rowStep + 2
            for interval in row.intervals {
                let x0 = Scale.map(interval.start, units, end), x1 = Scale.map(interval.end, units, end)
                let what = interval.popup.map { "\(row.popup): \($0)" } ?? row.popup
                plot += "<rect class=\"\(interval.kind.rawValue)\" x=\"\(x0)\" y=\"\(y)\" width=\"\(max(1, x1 - x0))\" height=\"\(rowHeight)\">"
                    + "<title>\(e(what)) \(interval.kind.rawValue) \(interval.start)–\(interval.end) ms</title></rect>\n"
            }
            // A slot row names the popup it holds at the start of each stretch: HTML over the plot
            // (text inside the stretched SVG would be stretched too), moved by the zoom script.
            for stretch in PopupIntervals.stretches(row) {
                let at = Scale.map(stretch.start, 1000, end)
                labels += "<span class=\"slot-label\" data-t=\"\(stretch.start)\" style=\"top: \(y)px; left: \(at / 10).\(at % 10)%\">"
                    + "\(e(stretch.popup))</span>\n"
            }
            for marker in row.markers {
                let x = Scale.map(marker.t, units, end)
                plot += "<line class=\"\(marker.kind.rawValue)\" x1=\"\(x)\" y1=\"\(y - 2)\" x2=\"\(x)\" y2=\"\(y + rowHeight + 2)\">"
                    + "<title>\(e(row.popup)) \(e(marker.label)) at \(marker.t) ms</title></line>\n"
            }
        }
        // A property of `expect` broken in this run: a dashed line across the lane at its instant.
        for v in broken {
            guard let f = v.failure else { continue }
            let x = Scale.map(f.at, units, end)
            plot += "<line class=\"broken\" x1=\"\(x)\" y1=\"0\" x2=\"\(x)\" y2=\"\(height)\">"
                + "<title>\(e(v.expectation.text + ": " + f.text))</title></line>\n"
        }
        let failing = broken.isEmpty ? "" : " — " + e(broken.map { "fails: " + $0.expectation.text }.joined(separator: "; "))
        let evidence = broken.isEmpty ? "" : "<ul class=\"evidence\">\n" + broken.compactMap { v in
            v.failure.map { "<li><b>\(e(v.expectation.text))</b> fails at \($0.at) ms: \(e($0.text))</li>\n" }
        }.joined() + "</ul>\n"
        return "<details class=\"lane\" open data-strategy=\"\(e(label))\">\n<summary>\(e(label))\(failing)</summary>\n\(evidence)<div class=\"rows\">\n"
            + "<div class=\"names\">\n\(names)</div>\n"
            + "<div class=\"plot-box\">\n"
            + "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(units) \(height)\" preserveAspectRatio=\"none\" "
            + "height=\"\(height)\">\n\(plot)</svg>\n\(labels)</div>\n</div>\n</details>\n"
    }

    static func e(_ text: String) -> String { XMLText.escape(text) }

    static let style = """
        body { font-family: Helvetica, Arial, sans-serif; font-size: 13px; margin: 0 16px 24px; color: #222; }
        h1 { font-size: 18px; margin: 12px 0 2px; }
        .file { color: #666; margin: 0 0 8px; }
        table.runs { border-collapse: collapse; margin-bottom: 8px; }
        table.runs th, table.runs td { border-bottom: 1px solid #ddd; padding: 2px 10px 2px 0; text-align: left; }
        .help { color: #666; }
        .legend .key { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin-left: 8px; }
        .key.queued, rect.queued { fill: #d9d9d9; background: #d9d9d9; }
        .key.presenting, rect.presenting { fill: #9ecae1; background: #9ecae1; }
        .key.shown, rect.shown { fill: #3182bd; background: #3182bd; }
        .key.hiding, rect.hiding { fill: #fdae6b; background: #fdae6b; }
        .key.drop { background: #d62728; width: 3px; }
        .key.warning { background: #ff7f0e; width: 5px; }
        line.drop { stroke: #d62728; stroke-width: 3; vector-effect: non-scaling-stroke; }
        line.warning { stroke: #ff7f0e; stroke-width: 5; vector-effect: non-scaling-stroke; }
        line.broken { stroke: #d62728; stroke-width: 2; stroke-dasharray: 4 3; vector-effect: non-scaling-stroke; }
        .axis { position: sticky; top: 0; z-index: 1; display: flex; background: #fff; border-bottom: 1px solid #555; height: 22px; }
        .gutter, .names { flex: 0 0 180px; }
        .ticks { position: relative; flex: 1; overflow: hidden; }
        .ticks span { position: absolute; bottom: 2px; transform: translateX(-50%); white-space: nowrap; color: #444; }
        .ticks span:first-child { transform: none; }
        details.lane summary { font-weight: bold; font-size: 14px; margin: 10px 0 4px; cursor: pointer; }
        .rows { display: flex; }
        .name { height: 22px; line-height: 22px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; padding-right: 8px; }
        .name.slot { font-style: italic; color: #555; }
        .lane-name { float: right; color: #999; font-size: 11px; margin-left: 6px; }
        .key.broken { width: 0; border-left: 2px dashed #d62728; }
        ul.evidence { margin: 2px 0 6px; padding-left: 20px; color: #d62728; }
        .plot-box { flex: 1; position: relative; overflow: hidden; }
        .slot-label { position: absolute; height: 18px; line-height: 18px; padding-left: 3px; font-size: 11px; color: #fff;
          pointer-events: none; white-space: nowrap; }
        svg.plot { flex: 1; width: 100%; display: block; cursor: grab; }

        """

    static let script = """
        (function () {
          var end = +document.body.dataset.end, units = \(units), view = { x: 0, w: units };
          var plots = document.querySelectorAll('svg.plot'), ticks = document.getElementById('ticks');
          function round(span) {
            var raw = span / 8, p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
            return [1, 2, 5, 10].map(function (m) { return m * p; }).filter(function (s) { return s >= raw; })[0];
          }
          // One unit for the whole axis, as TimeTicks.labels: minutes, seconds, tenths or ms.
          function labeller(ticks) {
            var last = ticks[ticks.length - 1] || 0;
            function all(n) { return ticks.every(function (t) { return t % n === 0; }); }
            var unit = all(60000) && last >= 120000 ? 'min' : all(1000) && last >= 1000 ? 's' : all(100) && last >= 1000 ? 'tenths' : 'ms';
            return function (t) {
              if (t === 0) return '0';
              if (unit === 'min') return t / 60000 + ' min';
              if (unit === 's') return t / 1000 + ' s';
              if (unit === 'tenths') return (t / 1000).toFixed(1) + ' s';
              return t + ' ms';
            };
          }
          function apply() {
            view.w = Math.min(units, Math.max(units / 100000, view.w));
            view.x = Math.min(units - view.w, Math.max(0, view.x));
            plots.forEach(function (p) { var h = p.viewBox.baseVal.height; p.setAttribute('viewBox', view.x + ' 0 ' + view.w + ' ' + h); });
            var t0 = view.x / units * end, t1 = (view.x + view.w) / units * end, step = round(t1 - t0), html = '', list = [];
            for (var t = Math.ceil(t0 / step) * step; t <= t1; t += step) list.push(t);
            var label = labeller(list);
            list.forEach(function (t) {
              html += '<span style="left: ' + ((t - t0) / (t1 - t0) * 100) + '%">' + label(t) + '</span>';
            });
            ticks.innerHTML = html;
            document.querySelectorAll('.slot-label').forEach(function (s) {
              var t = +s.dataset.t;
              s.style.left = ((t - t0) / (t1 - t0) * 100) + '%';
              s.style.display = t < t0 || t > t1 ? 'none' : '';
            });
          }
          function zoom(factor, at) {
            var center = view.x + view.w * (at === undefined ? 0.5 : at);
            view.w = view.w * factor; view.x = center - view.w * (at === undefined ? 0.5 : at); apply();
          }
          plots.forEach(function (p) {
            p.addEventListener('wheel', function (ev) {
              ev.preventDefault();
              var r = p.getBoundingClientRect(); zoom(ev.deltaY < 0 ? 0.8 : 1.25, (ev.clientX - r.left) / r.width);
            }, { passive: false });
            p.addEventListener('mousedown', function (ev) {
              var startX = ev.clientX, startView = view.x, width = p.getBoundingClientRect().width;
              function move(m) { view.x = startView - (m.clientX - startX) / width * view.w; apply(); }
              function up() { window.removeEventListener('mousemove', move); window.removeEventListener('mouseup', up); }
              window.addEventListener('mousemove', move); window.addEventListener('mouseup', up);
            });
          });
          document.getElementById('zoom-in').onclick = function () { zoom(0.5); };
          document.getElementById('zoom-out').onclick = function () { zoom(2); };
          document.getElementById('reset').onclick = function () { view = { x: 0, w: units }; apply(); };
          window.addEventListener('keydown', function (ev) {
            if (ev.key === '+' || ev.key === '=') zoom(0.5);
            if (ev.key === '-') zoom(2);
            if (ev.key === '0') { view = { x: 0, w: units }; apply(); }
          });
        })();

        """
}
