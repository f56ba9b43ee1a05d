/// The fast path for big scripts: the `events` array is read straight into `ScenarioEvent`s,
/// without a JSON tree.
///
/// Contract: gives exactly what the tree path gives (same scenario, same errors in the same
/// order). It applies when the file is an object whose `popups` and `state` keys come before
/// `events` (as `popsim gen` writes them); otherwise the whole file goes through the tree.
/// Within the array, each event of the common shape — `at` (plain digits) and one action:
/// `enqueue` (a declared popup or a list of them), `dismiss`, `remove`, `press` (popup and
/// button), `set` (declared names, values of their types), a flag action (`true`) or a navigation
/// without `then`, all with plain ASCII strings — is decoded in place; any other event, valid or
/// not, is re-read from its first byte through the tree path, which reports its errors exactly.
extension ScenarioLoader {
    /// nil when the fast path does not apply.
    static func loadStreaming(_ bytes: [UInt8], file: String, catalog: StrategyCatalog,
                              readAhead: ReadAheadSettings = ReadAheadSettings()) -> Result<Scenario, LoadErrors>? {
        bytes.withUnsafeBufferPointer { loadStreaming($0, file: file, catalog: catalog, readAhead: readAhead) }
    }

    static func loadStreaming(_ buffer: UnsafeBufferPointer<UInt8>, file: String, catalog: StrategyCatalog,
                              readAhead: ReadAheadSettings = ReadAheadSettings()) -> Result<Scenario, LoadErrors>? {
        var cursor = JSONCursor(buffer)
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: "{") else { return nil }
        var loader = ScenarioLoader(file: file, catalog: catalog)
        loader.readAhead = readAhead
        loader.source = buffer
        defer { loader.source = nil }
        do throws(JSONSyntaxError) {
            guard let root = try loader.streamRoot(&cursor) else { return nil }
            loader.loadRoot(root)
        } catch {
            return .failure(LoadErrors([LoadError(file: file, location: error.location, path: .root,
                                                  problem: .syntax(error.message))]))
        }
        return loader.finish()
    }

    /// Reads the top-level object; streams `events` when `popups` and `state` were read before it.
    /// Returns the root with a placeholder for the streamed `events`, or nil to use the tree path.
    mutating func streamRoot(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> JSONValue? {
        let rootLocation = cursor.location
        try cursor.enter(1)
        var members: [JSONValue.Member] = []
        if cursor.consume(UInt8(ascii: "}")) { return JSONValue(.object([]), at: rootLocation) }
        while true {
            let (key, keyLocation) = try cursor.memberKey()
            let first = !members.contains { $0.key == key }
            // A streamed member keeps a placeholder in the root: it is loaded already.
            let placeholder = JSONValue(.null, at: cursor.location)
            let value: JSONValue
            if key == "popups", first, let state = members.first(where: { $0.key == "state" }) {
                // After `state` (as `popsim gen` writes them): one popup's tree at a time.
                loadState(state.value)
                try streamPopups(&cursor)
                prepared = true
                value = placeholder
            } else if key == "events", first {
                guard members.contains(where: { $0.key == "popups" }) && members.contains(where: { $0.key == "state" }) else { return nil }
                prepareForEvents(members)
                try streamEvents(&cursor)
                streamed = true
                value = placeholder
            } else {
                value = try cursor.value(depth: 1)
            }
            members.append(JSONValue.Member(key: key, keyLocation: keyLocation, value: value))
            if try cursor.separator(closing: UInt8(ascii: "}"), in: "an object") { break }
        }
        cursor.skipWhitespace()
        if !cursor.atEnd {
            throw cursor.fail("expected the end of the file after the top-level value, got \(cursor.describeByte())")
        }
        return JSONValue(.object(members), at: rootLocation)
    }

    /// Loads `state`, then `popups`, as `loadRoot` would, so that events can refer to them
    /// (already done when `popups` was streamed).
    mutating func prepareForEvents(_ members: [JSONValue.Member]) {
        guard !prepared else { return }
        if let state = members.first(where: { $0.key == "state" }) { loadState(state.value) }
        if let popups = members.first(where: { $0.key == "popups" }) { loadPopups(popups.value) }
        prepared = true
    }

    mutating func streamEvents(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        guard cursor.peek == UInt8(ascii: "[") else {
            loadEvents(try cursor.value(depth: 1))
            return
        }
        try cursor.enter(2)
        var events: [ScenarioEvent] = []
        LargeBuffer.reserve(&events, (cursor.bytes.count - cursor.position) / 40)
        if !cursor.consume(UInt8(ascii: "]")) {
            try streamElements(&cursor, into: &events)
        }
        setEvents(events)
    }

    /// The `popups` object, parsed as `cursor.value(depth: 1)` would (the same syntax errors at the
    /// same places): first every name and where its value starts (each value parsed once to find
    /// its end, then dropped), then each popup loaded from its value parsed again — one popup's
    /// tree in memory at a time, not a million (a file of 1M popups loaded in 1.6 GB and ~8 s).
    mutating func streamPopups(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        guard cursor.peek == UInt8(ascii: "{") else { return loadPopups(try cursor.value(depth: 1)) }
        try cursor.enter(2)
        var names: [(key: String, keyLocation: SourceLocation)] = []
        // Where each popup left to the tree path starts (member index, cursor), in order.
        var starts: [(index: Int, at: JSONCursor)] = []
        // A popup of the common shape is decoded in this pass (ScenarioLoader+FastPopups.swift).
        var decoded = DecodedPopups()
        let first = cursor.position
        var guessAt = Self.sample
        if !cursor.consume(UInt8(ascii: "}")) {
            while true {
                if names.count == guessAt {
                    guessAt = Self.reserve(for: cursor, after: first, &names, &starts, &decoded)
                }
                let (key, keyLocation) = try cursor.memberKey()
                names.append((key, keyLocation))
                let start = cursor
                var then: JSONCursor?
                let recorded = decoded.locations.count
                if let popup = fastPopupObject(named: key, &cursor, then: &then, locations: &decoded.locations) {
                    decoded.append(popup, named: key, then: then)
                } else {
                    decoded.locations.truncate(to: recorded)
                    cursor = start
                    starts.append((names.count - 1, start))
                    decoded.append(nil, named: key)
                    _ = try cursor.value(depth: 2)
                }
                if try cursor.separator(closing: UInt8(ascii: "}"), in: "an object") { break }
            }
        }
        loadPopups(names, decoded: consume decoded) { i in
            var lo = 0, hi = starts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid].index < i { lo = mid + 1 } else { hi = mid }
            }
            guard lo < starts.count, starts[lo].index == i else { return nil }
            var again = starts[lo].at
            return try? again.value(depth: 2)
        }
    }

    /// Popups read before `reserve` first guesses how many follow.
    static let sample = 4096

    /// Room for as many more popups as the rest of the file holds at the rate so far, but at
    /// most 8 times as many as were read: a million popups grown by doubling were copied about
    /// once over and held 1.5 times their size at the last growth; guessed at 4,096, 32,768 and
    /// 262,144, they are copied a third over. The cap keeps a guess made from popups followed by
    /// a big `events` array from reserving gigabytes. Only a guess, so it cannot change what is
    /// loaded. Returns the count at which to guess again.
    static func reserve(for cursor: JSONCursor, after start: Int, _ names: inout [(key: String, keyLocation: SourceLocation)],
                        _ starts: inout [(index: Int, at: JSONCursor)], _ decoded: inout DecodedPopups) -> Int {
        let perPopup = max(1, (cursor.position - start) / names.count)
        let expected = min(names.count + (cursor.bytes.count - cursor.position) / perPopup, names.count.times(8))
        names.reserveCapacity(expected)
        decoded.reserve(expected)
        if !starts.isEmpty { starts.reserveCapacity(starts.count * expected / names.count) }
        return expected > names.count ? expected : Int.max
    }

    /// What the fast path reads: the tables fixed before `events` (see `FastEventDecoder`).
    var fastEvents: FastEventDecoder {
        FastEventDecoder(popupTable: popupTable, keywords: keywords, state: scenario.state)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Byte equality with an ASCII literal.
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        let other = literal.utf8Start
        for i in 0..<count where self[i] != other[i] { return false }
        return true
    }
}

extension JSONCursor {
    /// A string of printable ASCII without escapes, as its bytes; nil (position undefined) otherwise.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return slice
            }
            guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    /// A non-empty plain string (a button, a key), as a `String`.
    mutating func plainName() -> String? {
        guard let text = plainString(), !text.isEmpty else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// `"key":` with a plain key and the spaces around it; the cursor is then at the value.
    mutating func plainKey() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard let key = plainString() else { return nil }
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        return key
    }

    /// A non-negative integer written with plain digits (no sign, fraction, exponent or leading
    /// zero) that fits comfortably in `Int`; nil otherwise.
    mutating func plainInteger() -> Int? {
        let start = position
        var value = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            value = value &* 10 &+ Int(bytes[position] - 0x30)
            position += 1
        }
        let count = position - start
        guard count > 0, count <= 18, !(count > 1 && bytes[start] == 0x30) else { return nil }
        if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
        return value
    }

    /// The literal `false`.
    mutating func plainFalse() -> Bool {
        guard position + 5 <= bytes.count, bytes[position] == UInt8(ascii: "f"), bytes[position + 1] == UInt8(ascii: "a"),
              bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "s"),
              bytes[position + 4] == UInt8(ascii: "e") else { return false }
        position += 5
        return true
    }

    /// The literal `true`.
    mutating func plainTrue() -> Bool {
        guard position + 4 <= bytes.count, bytes[position] == UInt8(ascii: "t"), bytes[position + 1] == UInt8(ascii: "r"),
              bytes[position + 2] == UInt8(ascii: "u"), bytes[position + 3] == UInt8(ascii: "e") else { return false }
        position += 4
        return true
    }

    /// Steps over a value of plain JSON (strings of printable ASCII without escapes, plain
    /// integers, literals, arrays and objects nested at most `depth` deep), accepting only what
    /// `value(depth:)` accepts; false (position undefined) on anything else, which the caller
    /// leaves to the tree path.
    mutating func skipPlainValue(depth: Int) -> Bool {
        guard depth > 0, let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "\""): return plainString() != nil
        case UInt8(ascii: "t"): return plainTrue() && endsLiteral()
        case UInt8(ascii: "f"): return plainFalse() && endsLiteral()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let object = byte == UInt8(ascii: "{")
            position += 1
            skipWhitespace()
            if consume(object ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return true }
            while true {
                if object { guard plainKey() != nil else { return false } }
                guard skipPlainValue(depth: depth - 1) else { return false }
                skipWhitespace()
                if consume(object ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
                skipWhitespace()
            }
        default: return plainInteger() != nil && endsLiteral()
        }
    }

    /// Whether a literal or number ends here (a letter or digit after `true` is not JSON).
    private func endsLiteral() -> Bool {
        guard let next = peek else { return true }
        return next == UInt8(ascii: ",") || next == UInt8(ascii: "]") || next == UInt8(ascii: "}")
            || next == 0x20 || next == 0x0A || next == 0x09 || next == 0x0D
    }
}
