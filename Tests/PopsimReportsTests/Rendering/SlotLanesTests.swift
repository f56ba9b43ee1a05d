import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Issue 10: with several slots the charts add one lane per slot; issue 25: each slot row names
/// the popup it holds.
@Suite struct SlotLanesTests {
    @Test func notistackEvictionsShowAsThreeSlotLanes() throws {
        let result = try run(String(decoding: try FileIO.read(packageRoot.path + "/Scenarios/ns-2-one-eviction-at-a-time.json"),
                                    as: UTF8.self))
        let chart = Gantt.render([(label: "notistack", result: result)], chart: GanttStyle(columns: 60, ascii: true))
        #expect(chart == """
            NS-2: one eviction at a time - notistack
            A       /######\\\\\\\\
            B       /##########\\\\\\
            C       /##################################\\\\\\\\
            D             ..../###################################\\\\\\
            E             .......//##################################\\\\\\
            slot 1  /A#####\\\\\\/D##################################\\\\\\
            slot 2  /B#########\\\\/E##################################\\\\\\
            slot 3  /C#################################\\\\\\\\
                    0            2 s           4 s           6 s
            . queued  / presenting  # shown  \\ hiding  x drop  ! warning

            """)
    }

    @Test func oneSlotStrategiesDrawNoLanes() throws {
        let result = try run(String(decoding: try FileIO.read(packageRoot.path + "/Scenarios/sm-1-pause.json"), as: UTF8.self))
        #expect(PopupIntervals(result).slotRows.isEmpty)
        let svg = SVGChart.render(title: "t", lanes: [(label: "sonner", result: try run(String(decoding:
            try FileIO.read(packageRoot.path + "/Scenarios/son-1-covered-timers-run.json"), as: UTF8.self)))])
        #expect(svg.contains(">slot 3<"))
        #expect(!svg.contains(">slot 4<"))
    }
}

@Suite struct TerminalTests {
    /// The width: the terminal's own when stdout is one, else COLUMNS, else 80; within 40...1000.
    @Test func widthComesFromTheTerminalThenColumns() {
        var console = Console(stdoutIsTerminal: true, environment: ["COLUMNS": "90"])
        console.terminalColumns = 200
        #expect(console.columns == 200)
        console.stdoutIsTerminal = false
        #expect(console.columns == 90)
        #expect(Console(environment: [:]).columns == 80)
        #expect(Console(environment: ["COLUMNS": "9223372036854775807"]).columns == 1000)
        #expect(Console(environment: ["COLUMNS": "3"]).columns == 40)
    }

    /// A progress line is drawn only after the first second, and erased only if it was drawn.
    @Test func progressStaysSilentForShortWork() {
        final class Box: @unchecked Sendable { var drawn: [String] = [] }
        let box = Box()
        let line = ProgressLine { box.drawn.append($0) }
        line.update("check: 1 of 2 scenarios")
        line.finish()
        #expect(box.drawn.isEmpty)
        #expect(Console().progressLine() == nil)
    }
}
