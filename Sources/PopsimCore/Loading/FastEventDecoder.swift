/// Decodes one event of the common shape straight from its bytes (the fast path of
/// `ScenarioLoader+Stream.swift`, whose contract it keeps), or answers nil so that the caller
/// re-reads the event through the tree path.
///
/// Why a type of its own: it reads only what is fixed before the `events` array (the popup
/// names, the action keywords, the declared state), so a reader takes it once per array. As
/// methods of the loader, called from its mutating loop, each call copied the whole loader
/// (424 bytes) per event.
struct FastEventDecoder: Sendable {
    let popupTable: NameTable
    let keywords: ActionKeywords
    let state: StateSchema
    /// The declared state's names as bytes: a `set` key is matched without making a String (a
    /// miss, even of a name equal only as Unicode, goes to the tree path, which looks it up).
    let stateNames: [[UInt8]]

    init(popupTable: NameTable, keywords: ActionKeywords, state: StateSchema) {
        self.popupTable = popupTable
        self.keywords = keywords
        self.state = state
        stateNames = state.names.map { Array($0.utf8) }
    }

    func stateVariable(_ key: UnsafeBufferPointer<UInt8>) -> VariableID? {
        for (i, name) in stateNames.enumerated() where NameTable.equal(name, key) { return VariableID(index: i) }
        return nil
    }

    /// One event of the common shape, or nil (the caller re-reads it through the tree path).
    func event(_ cursor: inout JSONCursor, index: Int) -> ScenarioEvent? {
        let location = cursor.location
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        var at: Int?
        var action: Action?
        for member in 0..<2 {
            guard let key = cursor.plainKey() else { return nil }
            if key.equals("at") {
                guard at == nil, let t = cursor.plainInteger() else { return nil }
                at = t
            } else {
                guard action == nil, let a = fastAction(key, &cursor) else { return nil }
                action = a
            }
            cursor.skipWhitespace()
            let separator: UInt8 = member == 0 ? UInt8(ascii: ",") : UInt8(ascii: "}")
            guard cursor.consume(separator) else { return nil }
        }
        guard let at, let action else { return nil }
        return ScenarioEvent(at: at, action: action, index: index, location: location)
    }

    @inline(__always)
    func fastAction(_ key: UnsafeBufferPointer<UInt8>, _ cursor: inout JSONCursor) -> Action? {
        if key.equals("enqueue") { return fastEnqueue(&cursor) }  // the common case, first
        guard let kind = keywords.kind(key), let value = fastArgument(kind.argument, &cursor) else { return nil }
        return kind.action(value, then: [])
    }

    /// An argument of the given shape written plainly; nil sends the event to the tree path.
    @inline(__always)
    func fastArgument(_ shape: ActionKind.Argument, _ cursor: inout JSONCursor) -> ActionArgument? {
        switch shape {
        case .popups: return fastPopups(&cursor).map(ActionArgument.popups)
        case .popup: return fastPopup(&cursor).map(ActionArgument.popup)
        case .press: return fastPress(&cursor)
        case .state: return fastSet(&cursor).map(ActionArgument.state)
        case .flag: return cursor.plainTrue() ? .flag : nil
        case .screen: return fastScreen(&cursor).map(ActionArgument.screen)
        case .timerTarget: return fastTimerTarget(&cursor).map(ActionArgument.timerTarget)
        case .priority: return nil
        }
    }

    /// `true` or a plain popup id; anything else goes to the tree path.
    func fastTimerTarget(_ cursor: inout JSONCursor) -> TimerTarget? {
        if cursor.plainTrue() { return .all }
        return fastPopup(&cursor).map(TimerTarget.popup)
    }

    func fastPopup(_ cursor: inout JSONCursor) -> PopupID? {
        guard let name = cursor.plainString(), let id = popupTable.lookup(name) else { return nil }
        return PopupID(Int(id))
    }

    /// `enqueue` with one popup (no allocation) or a list.
    func fastEnqueue(_ cursor: inout JSONCursor) -> Action? {
        if cursor.peek != UInt8(ascii: "[") { return fastPopup(&cursor).map(Action.enqueue) }
        return fastPopups(&cursor).flatMap { ActionKind.enqueue.action(.popups($0), then: []) }
    }

    /// A popup id, or a non-empty list of them.
    func fastPopups(_ cursor: inout JSONCursor) -> [PopupID]? {
        guard cursor.consume(UInt8(ascii: "[")) else { return fastPopup(&cursor).map { [$0] } }
        var ids: [PopupID] = []
        while true {
            cursor.skipWhitespace()
            guard let id = fastPopup(&cursor) else { return nil }
            ids.append(id)
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: "]")) { break }
            guard cursor.consume(UInt8(ascii: ",")) else { return nil }
        }
        return ids
    }

    /// `{"name": value, …}` with declared names, distinct, and values of the declared types.
    func fastSet(_ cursor: inout JSONCursor) -> [(VariableID, StateValue)]? {
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        var changes: [(VariableID, StateValue)] = []
        while true {
            guard let name = cursor.plainKey(),
                  let id = stateVariable(name),
                  !changes.contains(where: { $0.0 == id }) else { return nil }
            let value: StateValue
            switch cursor.peek {
            case UInt8(ascii: "\""):
                guard let s = cursor.plainString() else { return nil }
                value = .string(String(decoding: s, as: UTF8.self))
            case UInt8(ascii: "t"):
                guard cursor.plainTrue() else { return nil }
                value = .boolean(true)
            case UInt8(ascii: "f"):
                guard cursor.plainFalse() else { return nil }
                value = .boolean(false)
            default:
                guard let n = cursor.plainInteger() else { return nil }
                value = .integer(n)
            }
            guard value.type == state.initial[id.index].type else { return nil }
            changes.append((id, value))
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: "}")) { break }
            guard cursor.consume(UInt8(ascii: ",")) else { return nil }
        }
        return changes
    }

    /// `{"popup": id, "button": name}` in either order.
    func fastPress(_ cursor: inout JSONCursor) -> ActionArgument? {
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        var popup: PopupID?
        var button: String?
        for member in 0..<2 {
            guard let key = cursor.plainKey() else { return nil }
            if key.equals("popup"), popup == nil {
                guard let id = fastPopup(&cursor) else { return nil }
                popup = id
            } else if key.equals("button"), button == nil {
                guard let name = cursor.plainName() else { return nil }
                button = name
            } else {
                return nil
            }
            cursor.skipWhitespace()
            guard cursor.consume(member == 0 ? UInt8(ascii: ",") : UInt8(ascii: "}")) else { return nil }
        }
        guard let popup, let button else { return nil }
        return .press(popup, button)
    }

    func fastScreen(_ cursor: inout JSONCursor) -> String? {
        guard let name = cursor.plainString(), !name.isEmpty else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// A popup's `then` of the plain shape: button names (distinct) to lists of actions, each an
    /// object with one action of the common shape; nil sends it to the tree path.
    func buttons(_ cursor: inout JSONCursor) -> [ButtonActions]? {
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        var out: [ButtonActions] = []
        cursor.skipWhitespace()
        if cursor.consume(UInt8(ascii: "}")) { return out }
        while true {
            let location = cursor.location
            guard let key = cursor.plainKey() else { return nil }
            let button = String(decoding: key, as: UTF8.self)
            guard !out.contains(where: { $0.button == button }), cursor.consume(UInt8(ascii: "[")) else { return nil }
            var actions: [Action] = []
            cursor.skipWhitespace()
            if !cursor.consume(UInt8(ascii: "]")) {
                while true {
                    guard cursor.consume(UInt8(ascii: "{")), let keyword = cursor.plainKey(),
                          let action = fastAction(keyword, &cursor) else { return nil }
                    cursor.skipWhitespace()
                    guard cursor.consume(UInt8(ascii: "}")) else { return nil }
                    actions.append(action)
                    cursor.skipWhitespace()
                    if cursor.consume(UInt8(ascii: "]")) { break }
                    guard cursor.consume(UInt8(ascii: ",")) else { return nil }
                    cursor.skipWhitespace()
                }
            }
            out.append(ButtonActions(button: button, actions: actions, location: location))
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: "}")) { return out }
            guard cursor.consume(UInt8(ascii: ",")) else { return nil }
            cursor.skipWhitespace()
        }
    }
}
