/// Gives a trace row its meaning against a catalog: the user, the time, and the verb with its
/// argument, packed (`PackedEntry`) — the one decoder every format and every path goes through.
///
/// Names are looked up by their bytes (`NameTable`); the argument is read in the shape the verb's
/// `ActionKind.Argument` calls for, so a new action needs nothing here. Contract: every problem
/// is one located `TraceError` at the field it is about; names are the catalog's (an unknown
/// popup, state name or action gets "did you mean"). A `set` row's value is `name=value`, typed by
/// the catalog's `state`; a `dismissed` row's value is the button (none: closed); a screen
/// change's value is the screen; `pauseTimers` without a popup is every popup.
public final class TraceRowDecoder: Sendable {
    public let file: String
    public let layout: TraceLayout
    let catalog: Scenario
    private let verbs = KeywordTable(TraceVerb.all.map(\.word))
    /// `TraceVerb.all`, held here: a global is read through a lazy start at every use.
    private let allVerbs = TraceVerb.all
    private let popups: NameTable
    /// The popups as keywords when they are few and short (most catalogs): a cheaper lookup.
    private let popupWords: KeywordTable?
    private let variables: NameTable
    /// The mapping's event names (id: index in `layout.mapping.events`) and popup names (id: the
    /// catalog popup's index).
    private let events: NameTable
    private let popupAliases: NameTable
    /// Per mapped event, its meaning resolved: the verb, and the fixed value's bytes or the
    /// variable a `set VARIABLE` sets.
    private let meanings: [(verb: TraceVerb, value: [UInt8]?, variable: Int32?)]

    /// A row's meaning: whose (the user's bytes, valid as the row's), when, what.
    public struct Decoded {
        public var user: UnsafeBufferPointer<UInt8>
        public var time: Int
        public var entry: PackedEntry
        /// The mapped event it read as (its index in `layout.mapping.events`), -1 for popsim's own word.
        public var event: Int32 = -1
    }

    public init(file: String, layout: TraceLayout, catalog: Scenario) {
        self.file = file
        self.layout = layout
        self.catalog = catalog
        var popups = NameTable(), variables = NameTable()
        for (i, p) in catalog.popups.enumerated() { popups.insert(p.name, id: Int32(i)) }
        self.popups = popups
        let names = catalog.popups.map(\.name)
        popupWords = KeywordTable.holds(names) ? KeywordTable(names) : nil
        for (i, name) in catalog.state.names.enumerated() { variables.insert(name, id: Int32(i)) }
        self.variables = variables
        var events = NameTable(), aliases = NameTable()
        for (i, e) in layout.mapping.events.enumerated() { events.insert(e.name, id: Int32(i)) }
        for a in layout.mapping.popups {
            if let i = catalog.popups.firstIndex(where: { $0.name == a.popup }) { aliases.insert(a.name, id: Int32(i)) }
        }
        self.events = events
        popupAliases = aliases
        meanings = layout.mapping.events.map { e in
            switch e.meaning {
            case .verb(let v): return (v, nil, nil)
            case .verbWith(let v, let value): return (v, Array(value.utf8), nil)
            case .setVariable(let name): return (.action(.set), nil, catalog.state.names.firstIndex(of: name).map { Int32($0) } ?? -1)
            }
        }
    }

    /// The row's meaning, or nil with its problem in `failure` (the success path carries no error
    /// value: a `Result` of this size cost a copy per row).
    public func decode(_ row: TraceRow, values: inout TraceValues, failure: inout TraceError?) -> Decoded? {
        guard let user = row[.user] else { return fail(&failure, missing(.user, row)) }
        guard let timeBytes = row[.time] else { return fail(&failure, missing(.time, row)) }
        guard let time = TraceTime.milliseconds(timeBytes, unit: layout.timeUnit, zoneMinutes: layout.mapping.timeZoneMinutes) else {
            return fail(&failure, error(row, .time, .badTime(String(decoding: timeBytes, as: UTF8.self), unit: layout.timeUnit)))
        }
        guard let word = row[.action] else { return fail(&failure, missing(.action, row)) }
        if events.count > 0, let m = events.lookup(word) {
            guard let entry = mapped(meanings[Int(m)], row, &values, &failure) else { return nil }
            return Decoded(user: user, time: time, entry: entry, event: m)
        }
        guard let v = verbs.index(word) else {
            let text = String(decoding: word, as: UTF8.self)
            if layout.mapping.skipsUnknownEvents { return fail(&failure, error(row, .action, .unmappedEvent(text))) }
            let words = TraceVerb.all.map(\.word)
            return fail(&failure, error(row, .action, .unknownAction(text, known: words, suggestion: Suggestion.closest(text, among: words))))
        }
        guard let entry = entry(allVerbs[v], row, &values, &failure) else { return nil }
        return Decoded(user: user, time: time, entry: entry)
    }

    /// A mapped event's entry: its verb, with its fixed value or variable in place of the row's
    /// value where the mapping gives one.
    private func mapped(_ m: (verb: TraceVerb, value: [UInt8]?, variable: Int32?), _ row: TraceRow, _ values: inout TraceValues,
                        _ failure: inout TraceError?) -> PackedEntry? {
        if let variable = m.variable {
            guard variable >= 0 else { return nil } // a mapping's variables are checked when it is loaded
            guard let raw = row[.value] else { return fail(&failure, missing(.value, row, what: "the new value of \(catalog.state.names[Int(variable)])")) }
            return setting(variable, raw, row, &values, &failure).map { PackedEntry(op: m.verb.ordinal, popup: $0.variable, value: $0.id) }
        }
        guard let fixed = m.value else { return entry(m.verb, row, &values, &failure) }
        return fixed.withUnsafeBufferPointer { entry(m.verb, row, &values, &failure, value: $0) }
    }

    private func fail<T>(_ failure: inout TraceError?, _ e: TraceError) -> T? {
        failure = e
        return nil
    }

    private func entry(_ verb: TraceVerb, _ row: TraceRow, _ values: inout TraceValues, _ failure: inout TraceError?,
                       value fixed: UnsafeBufferPointer<UInt8>? = nil) -> PackedEntry? {
        let op = verb.ordinal
        let value = fixed ?? row[.value]
        let kind: ActionKind
        switch verb {
        case .shown, .dismissed, .dropped:
            guard let p = popup(row, &failure) else { return nil }
            // A dismissal's button, a drop's reason.
            let button = verb != .shown ? value.map { values.intern(bytes: $0) } ?? -1 : -1
            return PackedEntry(op: op, popup: p, value: button)
        case .action(let k):
            kind = k
        }
        switch kind.argument {
        case .popups, .popup:
            return popup(row, &failure).map { PackedEntry(op: op, popup: $0, value: -1) }
        case .press:
            guard let p = popup(row, &failure) else { return nil }
            guard let button = value else { return fail(&failure, missing(.value, row, what: "the button pressed")) }
            return PackedEntry(op: op, popup: p, value: values.intern(bytes: button))
        case .state:
            return setting(value, row, &values, &failure).map { PackedEntry(op: op, popup: $0.variable, value: $0.id) }
        case .flag:
            return PackedEntry(op: op, popup: -1, value: -1)
        case .screen:
            guard let screen = value else { return fail(&failure, missing(.value, row, what: "the screen")) }
            return PackedEntry(op: op, popup: -1, value: values.intern(bytes: screen))
        case .timerTarget:
            guard row[.popup] != nil else { return PackedEntry(op: op, popup: -1, value: -1) }
            return popup(row, &failure).map { PackedEntry(op: op, popup: $0, value: -1) }
        case .priority:
            guard let raw = value else { return fail(&failure, missing(.value, row, what: "the priority")) }
            guard let n = Self.priority(raw) else {
                return fail(&failure, error(row, .value, .notAPriority(got: String(decoding: raw, as: UTF8.self))))
            }
            return PackedEntry(op: op, popup: n, value: -1)  // the priority in the popup's place (no popup, no text)
        }
    }

    /// An integer (within the packed field's range) or a named priority, as a popup's is written.
    static func priority(_ raw: UnsafeBufferPointer<UInt8>) -> Int32? {
        let text = String(decoding: raw, as: UTF8.self)
        if let named = ScenarioLoader.namedPriorities.first(where: { $0.0 == text }) { return Int32(exactly: named.1) }
        return Int(text).flatMap { Int32(exactly: $0) }
    }

    /// `name=value` over the catalog's state, typed by the variable's initial value.
    private func setting(_ text: UnsafeBufferPointer<UInt8>?, _ row: TraceRow, _ values: inout TraceValues,
                         _ failure: inout TraceError?) -> (variable: Int32, id: Int32)? {
        guard let text else { return fail(&failure, missing(.value, row, what: "name=value")) }
        if let id = values.setting(written: text), let variable = values.settingVariable(id) { return (variable, id) }
        guard let eq = text.firstIndex(of: UInt8(ascii: "=")) else {
            return fail(&failure, error(row, .value, .notASetting(String(decoding: text, as: UTF8.self))))
        }
        let nameBytes = UnsafeBufferPointer(rebasing: text[..<eq]), raw = UnsafeBufferPointer(rebasing: text[(eq + 1)...])
        guard let v = variables.lookup(nameBytes) else {
            let name = String(decoding: nameBytes, as: UTF8.self)
            return fail(&failure, error(row, .value, .unknownState(name, suggestion: Suggestion.closest(name, among: catalog.state.names))))
        }
        guard let found = setting(v, raw, row, &values, &failure) else { return nil }
        values.remember(written: text, as: found.id)
        return found
    }

    /// Variable `v` set to the text `raw`, typed by the variable's initial value.
    private func setting(_ v: Int32, _ raw: UnsafeBufferPointer<UInt8>, _ row: TraceRow, _ values: inout TraceValues,
                         _ failure: inout TraceError?) -> (variable: Int32, id: Int32)? {
        let variable = Int(v), initial = catalog.state.initial[variable]
        let id = values.intern(setting: VariableID(index: variable), raw: raw) { Self.value(raw, like: initial) }
        guard let id else {
            let name = catalog.state.names[variable], got = String(decoding: raw, as: UTF8.self)
            if case .boolean = initial { return fail(&failure, error(row, .value, .notABoolean(variable: name, got: got))) }
            return fail(&failure, error(row, .value, .notAnInteger(variable: name, got: got)))
        }
        return (v, id)
    }

    /// `raw` as a value of the type of `initial`: any text, an integer as `Int(String)` reads it
    /// (an optional sign, then digits), `true` or `false`.
    static func value(_ raw: UnsafeBufferPointer<UInt8>, like initial: StateValue) -> StateValue? {
        switch initial {
        case .string: return .string(String(decoding: raw, as: UTF8.self))
        case .integer: return Int(String(decoding: raw, as: UTF8.self)).map { .integer($0) }
        case .boolean:
            if raw.elementsEqual("true".utf8) { return .boolean(true) }
            if raw.elementsEqual("false".utf8) { return .boolean(false) }
            return nil
        }
    }

    private func popup(_ row: TraceRow, _ failure: inout TraceError?) -> Int32? {
        guard let name = row[.popup] else { return fail(&failure, missing(.popup, row, what: "the popup")) }
        if popupAliases.count > 0, let p = popupAliases.lookup(name) { return p }
        if let words = popupWords {
            if let p = words.index(name) { return Int32(p) }
        } else if let p = popups.lookup(name) {
            return p
        }
        let text = String(decoding: name, as: UTF8.self)
        return fail(&failure, error(row, .popup, .unknownPopup(text, suggestion: Suggestion.closest(text, among: catalog.popups.map(\.name)))))
    }

    private func missing(_ field: TraceField, _ row: TraceRow, what: String? = nil) -> TraceError {
        error(row, field, .missingField(field, name: layout.name(of: field), what: what))
    }

    func error(_ row: TraceRow, _ field: TraceField, _ problem: TraceProblem) -> TraceError {
        TraceError(file: file, location: row.location(field), problem: problem)
    }
}
