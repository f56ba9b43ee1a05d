/// Reading `popups`: every field of design.md §2, whether or not a strategy models it.
extension ScenarioLoader {
    mutating func loadPopups(_ v: JSONValue) {
        let path = JSONPath.root.appending("popups")
        let list = members(of: v, path)
        // First every id, so that `then` actions may name popups declared further down.
        var valid: [JSONValue.Member] = []
        for member in list {
            guard Self.isPopupName(member.key) else {
                report(.badName(member.key, rule: Self.nameRule), at: member.keyLocation, path.appending(member.key))
                continue
            }
            popupIndex[member.key] = PopupID(scenario.popups.count)
            popupTable.insert(member.key, id: Int32(scenario.popups.count))
            scenario.popups.append(Popup(name: member.key))
            valid.append(member)
        }
        for (i, member) in valid.enumerated() {
            scenario.popups[i] = loadPopup(member.key, member.value, path.appending(member.key))
        }
    }

    mutating func loadPopup(_ name: String, _ v: JSONValue, _ path: JSONPath) -> Popup {
        var popup = Popup(name: name)
        guard case .object(let list) = v.kind,
              let fields = fields(of: v, path, allowed: Self.popupKeys) else { return popup }
        for member in list {
            guard let field = PopupField(rawValue: member.key), fields[member.key] != nil,
                  !popup.fieldsSet.contains(field) else { continue }
            popup.fieldsSet.append(field)
            popup.fieldLocations.append(member.value.location)
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
        case .respond: popup.respond = response(v, path)
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
            // The column points into the expression: one past the opening quote, plus the offset.
            let hint = Suggestion.phrase(error.unknownName.flatMap { stateHint($0) })
            report(.condition(error.message + hint), at: v.location.advanced(by: 1 + error.offset), path)
        }
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
