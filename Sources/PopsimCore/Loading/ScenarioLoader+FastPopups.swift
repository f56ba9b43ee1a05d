/// The fast path for many popups: a popup's object of the common shape is decoded straight from
/// the bytes in the one pass that finds its end, without a JSON tree.
///
/// Why: a file of 1M popups took ~7 s, each popup parsed into a tree twice (to find its end,
/// then to load it) and checked through paths and dictionaries built for error messages.
/// Contract: gives exactly what `loadPopup` gives for the popups it accepts: known fields, each
/// once, with plain values of the right type and range — integers in plain digits, ASCII strings
/// without escapes, `true`/`false`, a `when` that parses, a `respond` of `after` and `button`, a
/// `then` of plain JSON (stepped over now, decoded once every name is known). Any other popup,
/// valid or not, goes through the tree path, which reports its errors exactly
/// (StreamingLoaderTests compares the two).
extension ScenarioLoader {
    /// Conditions already parsed, by text: popups share a few `when`s (a parse per popup was 8 %
    /// of loading a million). A class, so the loader's read-only fast path can fill it.
    final class ConditionCache {
        private var parsed: [String: Condition] = [:]

        /// The condition `text` states, or nil when it does not parse (not remembered: the tree
        /// path reports it).
        func parse(_ text: String, schema: StateSchema) -> Condition? {
            if let known = parsed[text] { return known }
            guard let condition = try? ConditionParser.parse(text, schema: schema) else { return nil }
            if parsed.count < 4096 { parsed[text] = condition }
            return condition
        }
    }

    /// One popup, or nil (the caller re-reads it from its first byte through the tree path).
    /// Inlined into its one caller, a mutating loop: an outlined call copied the loader per popup.
    /// A `then` is decoded later (`then` is set to where it starts): its actions may name popups
    /// declared further down, whose ids are known only once every name is read.
    @inline(__always)
    func fastPopupObject(named name: String, _ cursor: inout JSONCursor, then: inout JSONCursor?,
                         locations: inout FieldLocations) -> Popup? {
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        var popup = Popup(name: name)
        cursor.skipWhitespace()
        if cursor.consume(UInt8(ascii: "}")) { return popup }
        while true {
            guard let key = cursor.plainKey(), let field = Self.popupField(key), !popup.fieldsSet.contains(field) else { return nil }
            let location = cursor.location
            if field == .then {
                then = cursor
                guard cursor.skipPlainValue(depth: 5) else { return nil }
            } else {
                guard fastField(field, &cursor, into: &popup) else { return nil }
            }
            popup.record(field, at: location, in: &locations)
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: "}")) { return popup }
            guard cursor.consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// One field's value, as `load(_:_:_:into:)` reads it when the file is right; false otherwise.
    func fastField(_ field: PopupField, _ cursor: inout JSONCursor, into popup: inout Popup) -> Bool {
        switch field {
        case .priority:
            if cursor.peek == UInt8(ascii: "\"") {
                guard let word = cursor.plainString(),
                      let named = Self.namedPriorities.first(where: { $0.0.utf8.elementsEqual(word) }) else { return false }
                popup.priority = named.1
            } else {
                guard let n = cursor.plainInteger() else { return false }
                popup.priority = n
            }
        case .when:
            guard let text = cursor.plainString(), !text.isEmpty else { return false }
            let string = String(decoding: text, as: UTF8.self)
            guard let condition = conditions.parse(string, schema: scenario.state) else { return false }
            popup.when = condition
            popup.whenText = string
        case .untriggered: return fastChoice(&cursor, into: &popup.untriggered)
        case .switchBehavior: return fastChoice(&cursor, into: &popup.switchBehavior)
        case .level: return fastChoice(&cursor, into: &popup.level)
        case .arrival: return fastChoice(&cursor, into: &popup.arrival)
        case .duration:
            if cursor.peek == UInt8(ascii: "\"") {
                guard let word = cursor.plainString(), word.equals("forever") else { return false }
                popup.duration = .forever
            } else {
                guard let n = cursor.plainInteger() else { return false }
                popup.duration = .ms(n)
            }
        case .respond:
            guard let response = fastResponse(&cursor) else { return false }
            popup.respond = response
        case .then: return false
        case .key:
            guard let text = cursor.plainString() else { return false }
            popup.key = String(decoding: text, as: UTF8.self)
        case .dedupeKey:
            guard let name = cursor.plainName() else { return false }
            popup.dedupeKey = name
        case .dropQueued:
            if cursor.plainTrue() { popup.dropQueued = true } else if cursor.plainFalse() { popup.dropQueued = false } else { return false }
        case .showMs: return fastInteger(&cursor, minimum: 0, into: &popup.showMs)
        case .hideMs: return fastInteger(&cursor, minimum: 0, into: &popup.hideMs)
        case .delayMs: return fastInteger(&cursor, minimum: 0, into: &popup.delayMs)
        case .minMs: return fastInteger(&cursor, minimum: 0, into: &popup.minMs)
        case .ttlMs: return fastInteger(&cursor, minimum: 0, into: &popup.ttlMs)
        case .maxShows: return fastInteger(&cursor, minimum: 1, into: &popup.maxShows)
        }
        return true
    }

    /// The field a key names, compared as bytes (a String switch per key cost 6 % of a load).
    /// Only the keys of the same length are compared.
    static func popupField(_ key: UnsafeBufferPointer<UInt8>) -> PopupField? {
        guard key.count < fieldKeys.count else { return nil }
        for candidate in fieldKeys[key.count] where NameTable.equal(candidate.bytes, key) { return candidate.field }
        return nil
    }

    /// The fields' keys as bytes, by length.
    static let fieldKeys: [[(bytes: [UInt8], field: PopupField)]] = {
        var byLength = Array(repeating: [(bytes: [UInt8], field: PopupField)](), count: 1 + (PopupField.allCases.map(\.rawValue.utf8.count).max() ?? 0))
        for field in PopupField.allCases { byLength[field.rawValue.utf8.count].append((Array(field.rawValue.utf8), field)) }
        return byLength
    }()

    func fastInteger(_ cursor: inout JSONCursor, minimum: Int, into value: inout Int?) -> Bool {
        guard let n = cursor.plainInteger(), n >= minimum else { return false }
        value = n
        return true
    }

    /// One of `E`'s values, matched as bytes (no String, no string switch per popup).
    static func choice<E: RawRepresentable & CaseIterable>(_ cursor: inout JSONCursor) -> E? where E.RawValue == String {
        guard let word = cursor.plainString() else { return nil }
        return E.allCases.first { $0.rawValue.utf8.elementsEqual(word) }
    }

    func fastChoice<E: RawRepresentable & CaseIterable>(_ cursor: inout JSONCursor, into value: inout E) -> Bool where E.RawValue == String {
        guard let choice: E = Self.choice(&cursor) else { return false }
        value = choice
        return true
    }

    func fastChoice<E: RawRepresentable & CaseIterable>(_ cursor: inout JSONCursor, into value: inout E?) -> Bool where E.RawValue == String {
        guard let choice: E = Self.choice(&cursor) else { return false }
        value = choice
        return true
    }

    /// `{"after": ms}` or with a non-empty `button`, in either order.
    func fastResponse(_ cursor: inout JSONCursor) -> Response? {
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        var after: Int?
        var button: String?
        while true {
            guard let key = cursor.plainKey() else { return nil }
            if key.equals("after"), after == nil {
                guard let n = cursor.plainInteger() else { return nil }
                after = n
            } else if key.equals("button"), button == nil {
                guard let name = cursor.plainName() else { return nil }
                button = name
            } else {
                return nil
            }
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: "}")) { break }
            guard cursor.consume(UInt8(ascii: ",")) else { return nil }
        }
        guard let after else { return nil }
        return Response(after: after, button: button ?? "close")
    }
}
