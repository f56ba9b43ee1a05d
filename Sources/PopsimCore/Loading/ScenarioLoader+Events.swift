/// Reading `events` and `then` lists: one action each, timed or not (the keys and shapes are
/// `ActionKind`'s).
extension ScenarioLoader {
    mutating func loadEvents(_ v: JSONValue) {
        let path = JSONPath.root.appending("events")
        guard case .array(let list) = v.kind else {
            report(.expected("an array", got: v.errorDescription), at: v.location, path)
            return
        }
        var events: [ScenarioEvent] = []
        events.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            if let event = timedEvent(item, path.appending(i), index: i) { events.append(event) }
        }
        setEvents(events)
    }

    /// Keeps the events sorted by `at`, stably (equal times keep file order); a script that is
    /// already in order, the usual case, is kept as it is.
    mutating func setEvents(_ events: [ScenarioEvent]) {
        var sorted = true
        for i in events.indices.dropFirst() where events[i].at < events[i - 1].at {
            sorted = false
            break
        }
        scenario.events = sorted ? events : events.enumerated().sorted { a, b in
            a.element.at != b.element.at ? a.element.at < b.element.at : a.offset < b.offset
        }.map(\.element)
    }

    mutating func timedEvent(_ v: JSONValue, _ path: JSONPath, index: Int) -> ScenarioEvent? {
        guard let fields = fields(of: v, path, allowed: ["at", "then", "order", "maybe"] + Self.actionKeys) else { return nil }
        guard let atValue = fields["at"] else {
            report(.missingKey("at", what: "the time of the event in ms"), at: v.location, path)
            _ = action(v, fields, path)
            return nil
        }
        let window = time(atValue, path.appending("at"))
        let action = action(v, fields, path)
        guard let window, let action else { return nil }
        var uncertainty = Uncertainty(event: index, window: window.lowerBound < window.upperBound ? window : nil)
        if let order = fields["order"] { uncertainty.batch = batch(order, of: action, path.appending("order")) }
        if let maybe = fields["maybe"] { uncertainty.maybe = boolean(maybe, path.appending("maybe")) }
        if uncertainty != Uncertainty(event: index) { scenario.uncertainties.append(uncertainty) }
        return ScenarioEvent(at: window.lowerBound, action: action, index: index, location: v.location)
    }

    /// `at`: an instant, or a window `[lo, hi]` (inclusive) in which the event happens.
    mutating func time(_ v: JSONValue, _ path: JSONPath) -> ClosedRange<Int>? {
        guard case .array(let bounds) = v.kind else { return integer(v, path, minimum: 0).map { $0...$0 } }
        guard bounds.count == 2 else {
            report(.expected("an instant or a window [earliest, latest]", got: "an array of \(bounds.count)"), at: v.location, path)
            return nil
        }
        guard let lo = integer(bounds[0], path.appending(0), minimum: 0),
              let hi = integer(bounds[1], path.appending(1), minimum: 0) else { return nil }
        guard lo <= hi else {
            report(.expected("a window [earliest, latest] with earliest <= latest", got: "[\(lo), \(hi)]"), at: v.location, path)
            return nil
        }
        return lo...hi
    }

    /// `"order": "any"`: the batch of an enqueue of two popups or more arrives in any order.
    mutating func batch(_ v: JSONValue, of action: Action, _ path: JSONPath) -> Int? {
        guard choice(v, path, ["any"]) != nil else { return nil }
        guard case .enqueueMany(let list) = action else {
            report(.misplaced("order", hint: "\"order\": \"any\" goes on an enqueue of two popups or more"), at: v.location, path)
            return nil
        }
        return list.count
    }

    /// The items of a `then` list: actions without `at`.
    mutating func actionList(_ v: JSONValue, _ path: JSONPath) -> [Action] {
        guard case .array(let list) = v.kind else {
            report(.expected("an array of actions", got: v.errorDescription), at: v.location, path)
            return []
        }
        var actions: [Action] = []
        for (i, item) in list.enumerated() {
            let itemPath = path.appending(i)
            guard let fields = fields(of: item, itemPath, allowed: ["at", "then", "order", "maybe"] + Self.actionKeys) else { continue }
            if let at = fields["at"] {
                report(.misplaced("at", hint: "a then action runs at the moment that sets it off"),
                       at: at.location, itemPath.appending("at"))
            }
            for key in ["order", "maybe"] {
                guard let value = fields[key] else { continue }
                report(.misplaced(key, hint: "only a script event's arrival can be uncertain"), at: value.location, itemPath.appending(key))
            }
            if let action = action(item, fields, itemPath) { actions.append(action) }
        }
        return actions
    }

    /// Exactly one action key, plus `then` for navigation.
    mutating func action(_ v: JSONValue, _ fields: [String: JSONValue], _ path: JSONPath) -> Action? {
        let present = ActionKind.allCases.filter { fields[$0.keyword] != nil }
        guard present.count == 1, let kind = present.first, let value = fields[kind.keyword] else {
            report(.actionCount(present.map(\.keyword)), at: v.location, path)
            return nil
        }
        let valuePath = path.appending(kind.keyword)
        var then: [Action] = []
        if let thenValue = fields["then"] {
            if kind.isNavigation {
                then = actionList(thenValue, path.appending("then"))
            } else {
                report(.misplaced("then", hint: "it follows a navigation event; a button's actions go in the popup's then"),
                       at: thenValue.location, path.appending("then"))
            }
        }
        return argument(kind.argument, value, valuePath).flatMap { kind.action($0, then: then) }
    }

    /// Decodes an action's argument of the given shape, reporting what is wrong with it.
    mutating func argument(_ shape: ActionKind.Argument, _ v: JSONValue, _ path: JSONPath) -> ActionArgument? {
        switch shape {
        case .popups: return enqueue(v, path).map(ActionArgument.popups)
        case .popup: return popupRef(v, path).map(ActionArgument.popup)
        case .press: return press(v, path)
        case .state: return set(v, path).map(ActionArgument.state)
        case .flag: return flag(v, path) ? .flag : nil
        case .screen: return string(v, path, nonEmpty: true).map(ActionArgument.screen)
        case .timerTarget: return timerTarget(v, path).map(ActionArgument.timerTarget)
        case .priority: return priority(v, path).map(ActionArgument.priority)
        }
    }

    /// `true` (every popup's timer) or one popup id.
    mutating func timerTarget(_ v: JSONValue, _ path: JSONPath) -> TimerTarget? {
        if case .bool(true) = v.kind { return .all }
        guard case .string = v.kind else {
            report(.expected("a popup id or true", got: v.errorDescription), at: v.location, path)
            return nil
        }
        return popupRef(v, path).map(TimerTarget.popup)
    }

    mutating func enqueue(_ v: JSONValue, _ path: JSONPath) -> [PopupID]? {
        if case .array(let list) = v.kind {
            guard !list.isEmpty else {
                report(.expected("a popup id or a non-empty list of ids", got: "an empty array"), at: v.location, path)
                return nil
            }
            var ids: [PopupID] = []
            for (i, item) in list.enumerated() {
                if let id = popupRef(item, path.appending(i)) { ids.append(id) }
            }
            guard ids.count == list.count else { return nil }
            return ids
        }
        guard case .string = v.kind else {
            report(.expected("a popup id or a list of ids", got: v.errorDescription), at: v.location, path)
            return nil
        }
        return popupRef(v, path).map { [$0] }
    }

    mutating func press(_ v: JSONValue, _ path: JSONPath) -> ActionArgument? {
        guard let fields = fields(of: v, path, allowed: ["popup", "button"]) else { return nil }
        guard let popupValue = fields["popup"] else {
            report(.missingKey("popup", what: "the popup whose button is pressed"), at: v.location, path)
            return nil
        }
        guard let buttonValue = fields["button"] else {
            report(.missingKey("button", what: "the button pressed"), at: v.location, path)
            return nil
        }
        let popup = popupRef(popupValue, path.appending("popup"))
        let button = string(buttonValue, path.appending("button"), nonEmpty: true)
        guard let popup, let button else { return nil }
        return .press(popup, button)
    }

    mutating func set(_ v: JSONValue, _ path: JSONPath) -> [(VariableID, StateValue)]? {
        let list = members(of: v, path)
        var changes: [(VariableID, StateValue)] = []
        var ok = true
        for member in list {
            let varPath = path.appending(member.key)
            guard let id = scenario.state.lookup(member.key) else {
                report(.unknownState(member.key, suggestion: stateHint(member.key)),
                       at: member.keyLocation, varPath)
                ok = false
                continue
            }
            guard let value = stateValue(member.value, varPath) else { ok = false; continue }
            let declared = scenario.state.initial[id.index].type
            guard value.type == declared else {
                report(.expected("\(declared) (the type of state.\(member.key))", got: member.value.errorDescription),
                       at: member.value.location, varPath)
                ok = false
                continue
            }
            changes.append((id, value))
        }
        if case .object = v.kind, list.isEmpty, ok {
            report(.expected("at least one state change", got: "an empty object"), at: v.location, path)
            return nil
        }
        return ok && !changes.isEmpty ? changes : nil
    }
}
