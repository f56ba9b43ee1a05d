import PopsimCore

/// The text form of a timeline: one aligned line per entry, time first (also the golden format).
///
/// Line shape: `<t right-aligned>  <event padded>  <subject padded>  <reason>`, trailing spaces
/// removed, `-` for a line without a subject, every line ending in a newline. A subject that is not
/// a plain token (a screen name with a space, say) is written as a JSON string. Widths come from
/// the timeline itself, so the same timeline always gives the same bytes; `TimelineTextParser`
/// reads it back (round trip).
public enum TimelineText {
    static let eventWidth = TimelineEvent.allCases.map(\.rawValue.count).max() ?? 7

    public static func render(_ timeline: Timeline, style: TextStyle = .plain) -> String {
        var writer = ByteWriter()
        render(timeline, style: style, into: &writer)
        return writer.text
    }

    /// Formats straight into `writer`, one line at a time through one pointer.
    /// - Complexity: O(n) with no allocation per line. A long timeline is formatted in blocks,
    ///   every other block on a second core (`SideTask`) into memory and then written in order:
    ///   the same bytes as one core writes.
    public static func render(_ timeline: Timeline, style: TextStyle = .plain, into writer: inout ByteWriter) {
        render(timeline, style: style, into: &writer, block: block)
    }

    /// `block`: lines per block (tests: small, so that a short timeline takes the two-core path).
    static func render(_ timeline: Timeline, style: TextStyle, into writer: inout ByteWriter, block: Int) {
        let layout = Layout(timeline, style: style)
        let count = timeline.entries.count
        guard count / 4 >= block else { return layout.lines(0..<count, into: &writer) }
        var start = 0
        while start < count {
            let middle = min(start + block, count), end = min(middle + block, count)
            let ahead = SideTask { () -> ByteWriter in
                var memory = ByteWriter(capacity: (end - middle) * layout.typicalLine)
                layout.lines(middle..<end, into: &memory)
                return memory
            }
            layout.lines(start..<middle, into: &writer)
            if let memory = ahead.join() {
                writer.write(contentsOf: memory)
            } else {
                layout.lines(middle..<end, into: &writer)
            }
            start = end
        }
    }

    /// Lines per block when formatting on two cores.
    static let block = 1 << 16

    /// The column widths and the interned strings of one timeline's lines.
    struct Layout {
        let timeline: Timeline
        let names: Strings
        /// Each event's word as painted, with the spaces that pad it to its column and the gap.
        let cells: Strings
        let reasons: Strings
        let buttons: Strings
        let timeWidth: Int
        let subjectWidth: Int
        let lineCapacity: Int

        init(_ timeline: Timeline, style: TextStyle) {
            self.timeline = timeline
            names = Strings(timeline.subjects.map(display))
            var timeWidth = 1, subjectWidth = 1
            for entry in timeline.entries {
                timeWidth = max(timeWidth, ByteWriter.width(of: entry.t))
                if entry.subject >= 0 { subjectWidth = max(subjectWidth, names.characters[Int(entry.subject)]) }
            }
            self.timeWidth = timeWidth
            self.subjectWidth = subjectWidth
            let eventWidth = TimelineText.eventWidth
            cells = Strings(TimelineEvent.allCases.map {
                style.paint($0.rawValue, for: $0) + String(repeating: " ", count: eventWidth - $0.rawValue.count + 2)
            })
            reasons = Strings(Reason.allCases.map(\.rawValue))
            buttons = Strings(timeline.buttons.map(display))
            lineCapacity = timeWidth + 2 + cells.longest + max(names.longest, 1) + subjectWidth + 2 + reasons.longest
                + 2 + buttons.longest + 1
        }

        /// A guess at a line's length, to size a block's buffer.
        var typicalLine: Int { timeWidth + TimelineText.eventWidth + subjectWidth + 12 }

        /// The lines of `range`, in order: as many lines as fit a writer's chunk are formatted
        /// through one pointer, each line's parts copied from contiguous blocks.
        func lines(_ range: Range<Int>, into writer: inout ByteWriter) {
            // Consecutive lines often share their time: its formatted bytes (and the two spaces
            // after them) are reused.
            var lastTime = Int.min
            let timeCell = UnsafeMutablePointer<UInt8>.allocate(capacity: timeWidth + 2)
            defer { timeCell.deallocate() }
            timeCell.initialize(repeating: 0x20, count: timeWidth + 2)
            let timeWidth = timeWidth, subjectWidth = subjectWidth, lineCapacity = lineCapacity
            let perReservation = max(1, ByteWriter.chunk / lineCapacity)
            timeline.entries.withUnsafeBufferPointer { entries in
            names.withBytes { names in
            cells.withBytes { cells in
            reasons.withBytes { reasons in
            buttons.withBytes { buttons in
                var next = range.lowerBound
                while next < range.upperBound {
                    let last = min(next + perReservation, range.upperBound)
                    writer.withSpace((last - next) * lineCapacity) { start in
                        var out = start
                        for entry in entries[next..<last] {
                            if entry.t != lastTime {
                                lastTime = entry.t
                                _ = ByteWriter.format(entry.t, width: timeWidth, into: timeCell)
                            }
                            out = Strings.put(timeCell, timeWidth + 2, at: out)
                            out = cells.put(entry.event.ordinal, at: out)
                            var used = 1
                            if entry.subject >= 0 {
                                out = names.put(Int(entry.subject), at: out)
                                used = names.characters[Int(entry.subject)]
                            } else {
                                out.pointee = 0x2D
                                out += 1
                            }
                            if let reason = entry.reason {
                                let gap = subjectWidth - used + 2
                                out.update(repeating: 0x20, count: gap)
                                out = reasons.put(reason.ordinal, at: out + gap)
                            }
                            if entry.button > 0 {
                                out[0] = 0x20; out[1] = 0x20
                                out = buttons.put(Int(entry.button) - 1, at: out + 2)
                            }
                            out.pointee = 0x0A
                            out += 1
                        }
                        return out - start
                    }
                    writer.flushIfFull()
                    next = last
                }
            }
            }
            }
            }
            }
        }
    }

    /// A subject as the line shows it: bare when it is a plain token, else as a JSON string.
    static func display(_ name: String) -> String {
        let plain = !name.isEmpty && name != "-" && !name.hasPrefix("\"")
            && name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\\" && !TerminalText.isUnsafe($0) }
        return plain ? name : JSONRenderer.string(name)
    }

    /// Strings as one contiguous block of UTF-8, for copying into lines without reference counting.
    struct Strings {
        private var bytes: [UInt8] = []
        private var offsets: [Int] = [0]
        /// Characters of each string (what alignment counts).
        var characters: [Int] = []
        var longest = 0

        init(_ strings: [String]) {
            for s in strings {
                bytes.append(contentsOf: s.utf8)
                offsets.append(bytes.count)
                characters.append(s.count)
                longest = max(longest, s.utf8.count)
            }
        }

        /// Lends the block for copying, so a render loop takes the pointers once.
        func withBytes<R>(_ body: (Borrowed) -> R) -> R {
            bytes.withUnsafeBufferPointer { bytes in
                offsets.withUnsafeBufferPointer { offsets in
                    characters.withUnsafeBufferPointer { characters in
                        body(Borrowed(bytes: bytes, offsets: offsets, characters: characters))
                    }
                }
            }
        }

        /// Copies `n` bytes from `source` to `out`; returns the byte after them. Parts of a line
        /// are short, so a byte loop beats a call to memcpy.
        @inline(__always)
        static func put(_ source: UnsafePointer<UInt8>, _ n: Int, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            for k in 0..<n { out[k] = source[k] }
            return out + n
        }

        struct Borrowed {
            let bytes: UnsafeBufferPointer<UInt8>
            let offsets: UnsafeBufferPointer<Int>
            let characters: UnsafeBufferPointer<Int>

            /// Copies string `i` to `out`; returns the byte after it.
            @inline(__always)
            func put(_ i: Int, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
                let start = offsets[i], n = offsets[i + 1] - start
                guard n > 0, let base = bytes.baseAddress else { return out }
                return Strings.put(base + start, n, at: out)
            }
        }
    }
}

/// Whether text output carries ANSI colour; colour never carries meaning the words lack.
public enum TextStyle: Sendable {
    case plain, color

    /// The colours popsim uses; each only repeats what the text already says.
    public enum Ink: String, Sendable {
        case red = "31", green = "32", yellow = "33", cyan = "36", dim = "2", alarm = "1;31"
    }

    /// `text` in `ink` when colouring, else as it is.
    public func paint(_ text: String, _ ink: Ink) -> String {
        guard self == .color, !text.isEmpty else { return text }
        return "\u{1B}[\(ink.rawValue)m" + text + "\u{1B}[0m"
    }

    func paint(_ text: String, for event: TimelineEvent) -> String {
        guard self == .color else { return text }
        let code: String
        switch event {
        case .show, .shown: code = "32"
        case .hide, .gone: code = "33"
        case .drop: code = "31"
        case .warning: code = "1;31"
        case .nav, .suspend, .resume: code = "36"
        case .enqueue, .requeue: code = "2"
        }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }
}
