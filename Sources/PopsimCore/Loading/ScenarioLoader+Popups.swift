/// Reading `popups`: every field of design.md §2, whether or not a strategy models it.
extension ScenarioLoader {
    mutating func loadPopups(_ v: JSONValue) {
        guard case .object(let list) = v.kind else {
            report(.expected("an object", got: v.errorDescription), at: v.location, JSONPath.root.appending("popups"))
            return
        }
        loadPopups(list.map { ($0.key, $0.keyLocation) }) { list[$0].value }
    }

    /// The rules of `popups` over its members in file order, duplicates included: each name
    /// given by `names`, entry i's value by `value(i)` (the tree's, or parsed only when its
    /// popup is loaded: `streamPopups`), unless `decoded` holds the popup already loaded (the
    /// streaming fast path). A repeated name is reported and the first kept.
    mutating func loadPopups(_ names: [(key: String, keyLocation: SourceLocation)], decoded: consuming DecodedPopups = DecodedPopups(),
                             value: (Int) -> JSONValue?) {
        let path = JSONPath.root.appending("popups")
        var seen = NameTable()
        let ascii = names.allSatisfy { Self.isASCII($0.key) }
        let unique = ascii ? firstOccurrences(ascii: names, path, into: &seen) : firstOccurrences(names, path)
        // First every id, so that `then` actions may name popups declared further down.
        var valid: [Int] = []
        valid.reserveCapacity(unique.count)
        let first = scenario.popups.count
        for i in unique {
            let key = names[i].key
            guard Self.isPopupName(key) else {
                report(.badName(key, rule: Self.nameRule), at: names[i].keyLocation, path.appending(key))
                continue
            }
            valid.append(i)
        }
        if first == 0, popupTable.count == 0, valid.count == names.count, seen.count == names.count {
            // Every name valid and distinct: the table that found no repeat maps each to its index.
            popupTable = seen
        } else {
            for (n, i) in valid.enumerated() { popupTable.insert(names[i].key, id: Int32(first + n)) }
        }
        // The decoded popups' places, after any recorded before (then each start moves by as many).
        let shift = Int32(clamping: scenario.fieldLocations.count)
        if shift == 0 {
            scenario.fieldLocations = decoded.locations
        } else {
            scenario.fieldLocations.append(contentsOf: decoded.locations)
        }
        decoded.locations = FieldLocations()
        if first == 0, shift == 0, valid.count == names.count, decoded.popups.count == names.count {
            // Every name valid and distinct (the common case): the decoded list becomes the
            // scenario's, moved rather than copied (a million popups are ~200 MB).
            scenario.popups = decoded.popups
        } else {
            scenario.popups.reserveCapacity(first + valid.count)
            for i in valid {
                var popup = decoded.isDecoded(i) ? decoded.popups[i] : Popup(name: names[i].key)
                if popup.locationStart >= 0 { popup.locationStart += shift }
                scenario.popups.append(popup)
            }
        }
        decoded.popups = []
        // Every popup has its name (decoded ones from the start, placeholders above) before any
        // body is read: a body's messages (a `then` naming an unknown popup, say) may suggest
        // any declared name, whichever path reads the body.
        let thens = decoded.thens
        var nextThen = 0
        let decoder = fastEvents
        for (n, i) in valid.enumerated() {
            if decoded.isDecoded(i) {
                while nextThen < thens.count, thens[nextThen].index < i { nextThen += 1 }
                if nextThen < thens.count, thens[nextThen].index == i {
                    scenario.popups[first + n].then = deferredThen(thens[nextThen].at, decoder, path.appending(names[i].key))
                }
            } else {
                scenario.popups[first + n] = value(i).map { loadPopup(names[i].key, $0, path.appending(names[i].key)) } ?? Popup(name: names[i].key)
            }
        }
    }

    /// Popups the streaming fast path decoded, by member index (a placeholder where it did not).
    struct DecodedPopups {
        var popups: [Popup] = []
        var decoded: [Bool] = []
        /// The decoded popups' places (each popup's `locationStart` indexes this).
        var locations = FieldLocations()
        /// Decoded popups whose `then` waits for every name (member index, where it starts), in order.
        var thens: [(index: Int, at: JSONCursor)] = []

        func isDecoded(_ i: Int) -> Bool { i < decoded.count && decoded[i] }

        mutating func reserve(_ count: Int) {
            locations.reserve(locations.count * count / max(1, popups.count) + count / 8)
            popups.reserveCapacity(count)
            decoded.reserveCapacity(count)
        }

        /// `popup` as decoded (named `name`), or a placeholder of that name.
        mutating func append(_ popup: Popup?, named name: String, then: JSONCursor? = nil) {
            if let then, popup != nil { thens.append((popups.count, then)) }
            popups.append(popup ?? Popup(name: name))
            decoded.append(popup != nil)
        }
    }

    /// A decoded popup's `then`, now that every name has its id: decoded in place when plain,
    /// else through the tree (the value is valid JSON: the first pass checked it).
    mutating func deferredThen(_ start: JSONCursor, _ decoder: FastEventDecoder, _ path: JSONPath) -> [ButtonActions] {
        var cursor = start
        if let buttons = decoder.buttons(&cursor) { return buttons }
        cursor = start
        guard let value = try? cursor.value(depth: 3) else { return [] }
        return buttons(value, path.appending(PopupField.then.rawValue))
    }

    mutating func loadPopup(_ name: String, _ v: JSONValue, _ path: JSONPath) -> Popup {
        var popup = Popup(name: name)
        guard case .object(let list) = v.kind else {
            report(.expected("an object", got: v.errorDescription), at: v.location, path)
            return popup
        }
        // The same checks and messages as `fields(of:)`, without a dictionary per popup (a file
        // may declare a million): unknown keys, then a repeated key, each reported in file order.
        let fields = list.map { PopupField(rawValue: $0.key) }
        for (i, member) in list.enumerated() {
            if fields[i] == nil {
                report(.unknownKey(member.key, suggestion: hint(member.key, among: Self.popupKeys)),
                       at: member.keyLocation, path.appending(member.key))
            } else if fields[..<i].contains(fields[i]) {
                report(.duplicateKey(member.key), at: member.keyLocation, path.appending(member.key))
            }
        }
        for (i, member) in list.enumerated() {
            guard let field = fields[i], !popup.fieldsSet.contains(field) else { continue }
            popup.record(field, at: member.value.location, in: &scenario.fieldLocations)
            load(field, member.value, path.appending(member.key), into: &popup)
        }
        return popup
    }

    mutating func load(_ field: PopupField, _ v: JSONValue, _ path: JSONPath, into popup: inout Popup) {
        switch field {
        case .priority: popup.priority = priority(v, path)
        case .when: loadCondition(v, path, into: &popup)
        case .untriggered: popup.untriggered = choice(v, path, UntriggeredBehavior.self) ?? .await
        case .switchBehavior: popup.switchBehavior = choice(v, path, SwitchBehavior.self) ?? .await
        case .duration: popup.duration = displayTime(v, path)
        case .respond: (popup.respond, popup.respondByShow) = responses(v, path)
        case .then: popup.then = buttons(v, path)
        case .key: popup.key = string(v, path)
        case .level: popup.level = choice(v, path, Level.self)
        case .showMs: popup.showMs = integer(v, path, minimum: 0)
        case .hideMs: popup.hideMs = integer(v, path, minimum: 0)
        case .arrival: popup.arrival = choice(v, path, Arrival.self)
        case .dropQueued: popup.dropQueued = boolean(v, path)
        case .dedupeKey: popup.dedupeKey = string(v, path, nonEmpty: true)
        case .delayMs: popup.delayMs = integer(v, path, minimum: 0)
        case .minMs: popup.minMs = integer(v, path, minimum: 0)
        case .ttlMs: popup.ttlMs = integer(v, path, minimum: 0)
        case .maxShows: popup.maxShows = integer(v, path, minimum: 1)
        }
    }

    /// Milliseconds, or `"forever"`.
    mutating func displayTime(_ v: JSONValue, _ path: JSONPath) -> DisplayTime? {
        if case .string(let s) = v.kind {
            if s == "forever" { return .forever }
            report(.expectedOneOf(["an integer >= 0", "forever"], got: v.errorDescription,
                                  suggestion: hint(s, among: ["forever"])), at: v.location, path)
            return nil
        }
        return integer(v, path, minimum: 0).map(DisplayTime.ms)
    }

    /// An integer, or one of FGPopupScheduler's names (`normal` is 100).
    mutating func priority(_ v: JSONValue, _ path: JSONPath) -> Int? {
        if case .string(let s) = v.kind {
            if let named = Self.namedPriorities.first(where: { $0.0 == s }) { return named.1 }
            let words = Self.namedPriorities.map(\.0)
            report(.expectedOneOf(["an integer"] + words, got: v.errorDescription,
                                  suggestion: hint(s, among: words)), at: v.location, path)
            return nil
        }
        return integer(v, path)
    }

    mutating func loadCondition(_ v: JSONValue, _ path: JSONPath, into popup: inout Popup) {
        guard let text = string(v, path, nonEmpty: true) else { return }
        do {
            popup.when = try ConditionParser.parse(text, schema: scenario.state)
            popup.whenText = text
        } catch {
            // The column points into the expression as written (escapes counted as written).
            let hint = Suggestion.phrase(error.unknownName.flatMap { stateHint($0) })
            report(.condition(error.message + hint), at: location(inStringAt: v.location, offset: error.offset), path)
        }
    }

    /// `respond`: one answer for every show, or a list show by show (`null`: nobody answers that
    /// show) whose last answer answers every show past it.
    mutating func responses(_ v: JSONValue, _ path: JSONPath) -> (Response?, [Response?]) {
        guard case .array(let items) = v.kind else { return (response(v, path), []) }
        let list = items.enumerated().map { i, item -> Response? in
            if case .null = item.kind { return nil }
            return response(item, path.appending(i))
        }
        return (list.last { $0 != nil } ?? nil, list)
    }

    mutating func response(_ v: JSONValue, _ path: JSONPath) -> Response? {
        guard let fields = fields(of: v, path, allowed: ["after", "button"]) else { return nil }
        var button = "close"
        if let b = fields["button"], let s = string(b, path.appending("button"), nonEmpty: true) { button = s }
        guard let after = fields["after"] else {
            report(.missingKey("after", what: "ms after the popup is fully shown"), at: v.location, path)
            return nil
        }
        return integer(after, path.appending("after"), minimum: 0).map { Response(after: $0, button: button) }
    }

    mutating func buttons(_ v: JSONValue, _ path: JSONPath) -> [ButtonActions] {
        members(of: v, path).map { member in
            ButtonActions(button: member.key, actions: actionList(member.value, path.appending(member.key)),
                          location: member.keyLocation)
        }
    }
}

extension ScenarioLoader {
    /// The declared popup `name` names, or nil. Declared names are ASCII (`isPopupName`), so an
    /// ASCII name is looked up by its bytes; any other matches only when Swift's comparison of
    /// strings (canonical equivalence) equates it to an ASCII one, character by character (the
    /// Kelvin sign is "K"), as the dictionary of Strings this table replaced matched it.
    static func popupID(named name: String, in table: NameTable) -> PopupID? {
        guard let spelled = asciiSpelling(name) else { return nil }
        return table.lookup(spelled).map { PopupID(Int($0)) }
    }

    static func asciiSpelling(_ name: String) -> String? {
        if isASCII(name) { return name }
        var out = ""
        for character in name {
            guard let ascii = asciiCharacters.first(where: { $0 == character }) else { return nil }
            out.append(ascii)
        }
        return out
    }

    /// ASCII strings are equal as Swift compares strings exactly when their bytes are.
    static func isASCII(_ name: String) -> Bool { name.utf8.allSatisfy { $0 < 0x80 } }

    private static let asciiCharacters: [Character] = (0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
}
