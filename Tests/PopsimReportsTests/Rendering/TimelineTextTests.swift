import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

@Suite struct TimelineTextTests {
    @Test func alignsColumnsAndRoundTrips() throws {
        let timeline = Timeline(subjects: ["a", "longer"], entries: [
            .init(t: 0, event: .enqueue, subject: 0),
            .init(t: 5, event: .suspend, subject: -1),
            .init(t: 1200, event: .hide, subject: 1, reason: .temporary),
        ])
        let text = TimelineText.render(timeline)
        #expect(text == """
               0  enqueue  a
               5  suspend  -
            1200  hide     longer  temporary

            """)
        let parsed = try TimelineTextParser.parse(text)
        #expect(TimelineTextParser.sameEntries(parsed, timeline))
        #expect(TimelineText.render(parsed) == text)
    }

    /// A `hide … user` line names the pressed button when it is not `close` (quoted if need be),
    /// and reads back.
    @Test func pressedButtonsRoundTrip() throws {
        var timeline = Timeline(subjects: ["rate"])
        timeline.entries = [
            .init(t: 0, event: .hide, subject: 0, reason: .user, button: timeline.buttonIndex("ok")),
            .init(t: 1, event: .hide, subject: 0, reason: .user),
            .init(t: 2, event: .hide, subject: 0, reason: .user, button: timeline.buttonIndex("not now")),
        ]
        let text = TimelineText.render(timeline)
        #expect(text == "0  hide     rate  user  ok\n1  hide     rate  user\n2  hide     rate  user  \"not now\"\n")
        let parsed = try TimelineTextParser.parse(text)
        #expect(TimelineTextParser.sameEntries(parsed, timeline))
        #expect(TimelineText.render(parsed) == text)
        #expect(throws: TimelineTextParser.Failure(line: 1, message: #"expected '<t> <event> <subject> [reason [button]]', got "0 hide a temporary ok""#)) {
            try TimelineTextParser.parse("0 hide a temporary ok\n")
        }
    }

    @Test func rejectsALineThatIsNotTimeline() {
        #expect(throws: TimelineTextParser.Failure(line: 2, message: #"expected '<t> <event> <subject> [reason [button]]', got "soon show a""#)) {
            try TimelineTextParser.parse("0 show a\nsoon show a\n")
        }
        #expect(throws: TimelineTextParser.Failure(line: 1, message: #"unknown reason "later""#)) {
            try TimelineTextParser.parse("0 hide a later\n")
        }
    }

    @Test func colourOnlyWrapsTheEventWord() {
        let timeline = Timeline(subjects: ["a"], entries: [.init(t: 0, event: .show, subject: 0)])
        #expect(TimelineText.render(timeline, style: .color) == "0  \u{1B}[32mshow\u{1B}[0m     a\n")
    }
}

@Suite struct TimelineTextQuotingTests {
    @Test func subjectsThatAreNotPlainTokensAreQuotedAndRoundTrip() throws {
        let timeline = Timeline(subjects: ["Cart   ", "Main screen", "-", "", "a\"b", "ok"], entries: [
            .init(t: 1, event: .nav, subject: 0), .init(t: 2, event: .nav, subject: 1), .init(t: 3, event: .nav, subject: 2),
            .init(t: 4, event: .nav, subject: 3), .init(t: 5, event: .warning, subject: 4, reason: .notOnStack),
            .init(t: 6, event: .suspend, subject: -1), .init(t: 7, event: .nav, subject: 5),
        ])
        let text = TimelineText.render(timeline)
        #expect(text == #"""
            1  nav      "Cart   "
            2  nav      "Main screen"
            3  nav      "-"
            4  nav      ""
            5  warning  a"b            not-on-stack
            6  suspend  -
            7  nav      ok

            """#)
        let parsed = try TimelineTextParser.parse(text)
        #expect(TimelineTextParser.sameEntries(parsed, timeline))
        #expect(TimelineText.render(parsed) == text)
    }

    /// A long timeline is formatted in blocks, every other one on a second core: the same bytes,
    /// in memory and through a sink, whichever core gets each block.
    @Test func blocksFormattedOnTwoCoresGiveTheSameBytes() {
        var timeline = Timeline(subjects: ["a", "longer", "é x"])
        let events: [TimelineEvent] = [.enqueue, .show, .shown, .hide, .gone, .drop, .warning]
        for i in 0..<2_000 {
            timeline.entries.append(.init(t: i / 3 * 17, event: events[i % events.count], subject: Int32(i % 4) - 1,
                                          reason: i % 5 == 0 ? .temporary : nil))
        }
        let one = TimelineText.render(timeline)
        for block in [1, 7, 64, 499] {
            var memory = ByteWriter()
            TimelineText.render(timeline, style: .plain, into: &memory, block: block)
            #expect(memory.text == one, "block \(block)")
            let collected = Collected()
            var sunk = ByteWriter { bytes in collected.append(bytes); return true }
            TimelineText.render(timeline, style: .plain, into: &sunk, block: block)
            sunk.flush()
            #expect(collected.text == one, "block \(block), through a sink")
        }
    }

    final class Collected: @unchecked Sendable {
        private var bytes: [UInt8] = []
        func append(_ more: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: more) }
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }
}
