import Dispatch

/// The second half of a big `events` array, read on a second core while the first half is read
/// as usual: a speculation that is kept only when it is exactly what one reader would have read.
///
/// Why: a 1M-event file spent a third of a run reading its events, on one core of two.
/// How: a guess at an element boundary past the middle (`,` then a `{`); the ahead reader decodes
/// fast-path events from there (`FastEventDecoder`, which reads only tables fixed before the
/// array) until the array closes, an event needs the tree path, or the syntax goes wrong. The guess is confirmed only if the
/// first reader, reading on, steps over a separator and lands exactly on it: then both read the
/// same bytes from the same state, and the ahead events are kept with their index and line
/// shifted. Otherwise (the guess was inside a string, say) they are dropped and the first reader
/// goes on alone. Where the ahead reader stopped short, the first reader resumes from there, so
/// errors and slow-path events are reported exactly as one reader reports them.
extension ScenarioLoader {
    /// When to read ahead, and (for tests) how.
    struct ReadAheadSettings {
        /// Arrays shorter than this (in bytes) are read by one reader.
        var from = 4 << 20
        /// Read ahead on this thread first, as if the other core were done before the first half.
        var inline = false
        /// Told how many events read ahead were kept (tests: that the path was taken).
        var kept: ((Int) -> Void)?
    }

    /// What the ahead reader read: its events (index and line relative to the guess), where it
    /// stopped, and whether it consumed the array's closing `]`.
    struct ReadAhead: Sendable {
        var events: [ScenarioEvent]
        var stop: JSONCursor
        var closed: Bool
    }

    /// The guessed start of an element at or past the middle of what is left, as a cursor whose
    /// line numbers count from 1 on the guess's line; nil when the rest is short or has no guess.
    static func readAheadStart(_ cursor: JSONCursor, minimum: Int) -> JSONCursor? {
        let bytes = cursor.bytes
        guard bytes.count - cursor.position >= minimum else { return nil }
        var p = cursor.position + (bytes.count - cursor.position) / 2
        while p < bytes.count {
            if bytes[p] == UInt8(ascii: ",") {
                var q = p + 1
                while q < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[q]) { q += 1 }
                if q < bytes.count, bytes[q] == UInt8(ascii: "{") {
                    var start = cursor
                    start.position = q
                    start.line = 1
                    start.lineStart = cursor.lineStart
                    var back = q - 1
                    while back >= cursor.lineStart, back >= 0 {
                        if bytes[back] == 0x0A { start.lineStart = back + 1; break }
                        back -= 1
                    }
                    return start
                }
                p = q
            } else {
                p += 1
            }
        }
        return nil
    }

    /// Fast-path events from `start` on (see the type's comment): static, so that the other core
    /// is handed the decoder's tables and a cursor, nothing of the loader.
    static func readEventsAhead(from start: JSONCursor, decoder: FastEventDecoder) -> ReadAhead {
        var cursor = start
        var events: [ScenarioEvent] = []
        LargeBuffer.reserve(&events, (cursor.bytes.count - cursor.position) / 40)
        while true {
            let element = cursor
            guard let event = decoder.event(&cursor, index: events.count) else {
                return ReadAhead(events: events, stop: element, closed: false)
            }
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: ",")) {
                cursor.skipWhitespace()
                events.append(event)
            } else if cursor.consume(UInt8(ascii: "]")) {
                events.append(event)
                return ReadAhead(events: events, stop: cursor, closed: true)
            } else {
                return ReadAhead(events: events, stop: element, closed: false)
            }
        }
    }

    /// Reads the array's elements from `cursor` (just past `[` or a separator) into `events`,
    /// with the second half read ahead on another core when the array is big.
    mutating func streamElements(_ cursor: inout JSONCursor, into events: inout [ScenarioEvent]) throws(JSONSyntaxError) {
        var index = 0
        if let start = Self.readAheadStart(cursor, minimum: readAhead.from) {
            let decoder = fastEvents
            let task = SideTask(inline: readAhead.inline) { Self.readEventsAhead(from: start, decoder: decoder) }
            let reached: Bool
            do {
                reached = try streamElements(&cursor, into: &events, index: &index, stopAt: start.position)
            } catch {
                _ = task.join()
                throw error
            }
            let ahead = task.join()
            guard reached else { return }
            if let ahead {
                let lines = cursor.line - 1
                events.append(contentsOf: ahead.events.lazy.map { $0.shifted(index: index, lines: lines) })
                readAhead.kept?(ahead.events.count)
                index += ahead.events.count
                cursor = ahead.stop
                cursor.line += lines
                if ahead.closed { return }
            }
        }
        _ = try streamElements(&cursor, into: &events, index: &index, stopAt: -1)
    }

    /// One reader's loop; stops (returning true) right after a separator that lands on `stopAt`,
    /// else reads to the closing `]` (false).
    mutating func streamElements(_ cursor: inout JSONCursor, into events: inout [ScenarioEvent], index: inout Int,
                                 stopAt: Int) throws(JSONSyntaxError) -> Bool {
        let path = JSONPath.root.appending("events")
        let decoder = fastEvents
        while true {
            let start = cursor
            if let event = decoder.event(&cursor, index: index) {
                events.append(event)
            } else {
                cursor = start
                let value = try cursor.value(depth: 2)
                if let event = timedEvent(value, path.appending(index), index: index) { events.append(event) }
            }
            index += 1
            if try cursor.separator(closing: UInt8(ascii: "]"), in: "an array") { return false }
            if cursor.position == stopAt { return true }
        }
    }
}
