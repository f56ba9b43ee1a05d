import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Issue 10: with several slots the charts add one lane per slot.
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
            slot 1  /######\\\\\\/###################################\\\\\\
            slot 2  /##########\\\\//##################################\\\\\\
            slot 3  /##################################\\\\\\\\
                    0                       3742                 7485 ms
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
