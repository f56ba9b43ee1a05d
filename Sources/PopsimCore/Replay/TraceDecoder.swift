/// Gives a trace record its meaning against a catalog: the user, the time, and the action in
/// the scenario vocabulary (or a production observation, `shown` / `dismissed`).
///
/// Contract: every problem is one located `LoadError` at the field it is about; names are the
/// catalog's (an unknown popup, state name or action gets "did you mean"). A `set` row's value is
/// `name=value`, typed by the catalog's `state`; a `dismissed` row's value is the button (none:
/// closed); a screen change's value is the screen; `pauseTimers` without a popup is every popup.
public struct TraceDecoder: Sendable {
    public static let observations = ["shown", "dismissed"]
    public let file: String
    public let layout: TraceLayout
    let catalog: Scenario
    private let popups: [String: PopupID]
    private let actions: [String: ActionKind]

    public init(file: String, layout: TraceLayout, catalog: Scenario) {
        self.file = file
        self.layout = layout
        self.catalog = catalog
        var popups: [String: PopupID] = [:]
        for (i, p) in catalog.popups.enumerated() { popups[p.name] = PopupID(i) }
        self.popups = popups
        var actions: [String: ActionKind] = [:]
        for kind in ActionKind.allCases { actions[kind.keyword] = kind }
        self.actions = actions
    }

    /// The user and the entry of `record`.
    public func decode(_ record: TraceRecord) -> Result<(user: String, entry: TraceEntry), LoadError> {
        guard let user = record[.user] else { return .failure(missing(.user, record)) }
        guard let timeText = record[.time] else { return .failure(missing(.time, record)) }
        guard let time = TraceTime.milliseconds(timeText, unit: layout.timeUnit) else {
            return .failure(error(record, .time, .expected(TraceTime.expected(layout.timeUnit), got: JSONValue.quoted(timeText))))
        }
        guard let word = record[.action] else { return .failure(missing(.action, record)) }
        let kind: TraceEntry.Kind
        switch decodeKind(word, record) {
        case .success(let k): kind = k
        case .failure(let e): return .failure(e)
        }
        return .success((user, TraceEntry(time: time, kind: kind, row: record.row, location: record.location(.user))))
    }

    private func decodeKind(_ word: String, _ record: TraceRecord) -> Result<TraceEntry.Kind, LoadError> {
        if word == "shown" || word == "dismissed" {
            guard let p = popup(record) else { return .failure(popupError(record)) }
            return .success(word == "shown" ? .shown(p) : .dismissed(p, button: record[.value]))
        }
        guard let kind = actions[word] else {
            let words = ScenarioLoader.actionKeys + Self.observations
            return .failure(error(record, .action, .expectedOneOf(words, got: JSONValue.quoted(word),
                                                                  suggestion: Suggestion.closest(word, among: words))))
        }
        switch kind.argument {
        case .popups, .popup:
            guard let p = popup(record) else { return .failure(popupError(record)) }
            switch kind {
            case .dismiss: return .success(.action(.dismiss(p)))
            case .remove: return .success(.action(.remove(p)))
            default: return .success(.action(.enqueue(p)))
            }
        case .press:
            guard let p = popup(record) else { return .failure(popupError(record)) }
            guard let button = record[.value] else { return .failure(missing(.value, record, what: "the button pressed")) }
            return .success(.action(.press(p, button: button)))
        case .state:
            return setAction(record).map { .action($0) }
        case .flag:
            switch kind {
            case .suspend: return .success(.action(.suspend))
            case .resume: return .success(.action(.resume))
            case .trigger: return .success(.action(.trigger))
            case .clear: return .success(.action(.clear))
            case .pop: return .success(.action(.navigate(.pop, then: [])))
            default: return .success(.action(.navigate(.popToRoot, then: [])))
            }
        case .screen:
            guard let screen = record[.value] else { return .failure(missing(.value, record, what: "the screen")) }
            switch kind {
            case .push: return .success(.action(.navigate(.push(screen), then: [])))
            case .popTo: return .success(.action(.navigate(.popTo(screen), then: [])))
            default: return .success(.action(.navigate(.replace(screen), then: [])))
            }
        case .timerTarget:
            var target = TimerTarget.all
            if record[.popup] != nil {
                guard let p = popup(record) else { return .failure(popupError(record)) }
                target = .popup(p)
            }
            return .success(.action(kind == .pauseTimers ? .pauseTimers(target) : .resumeTimers(target)))
        }
    }

    /// `name=value` over the catalog's state, typed by the variable's initial value.
    private func setAction(_ record: TraceRecord) -> Result<Action, LoadError> {
        guard let text = record[.value] else { return .failure(missing(.value, record, what: "name=value")) }
        guard let eq = text.firstIndex(of: "=") else {
            return .failure(error(record, .value, .expected("name=value", got: JSONValue.quoted(text))))
        }
        let name = String(text[..<eq]), raw = String(text[text.index(after: eq)...])
        guard let variable = catalog.state.lookup(name) else {
            return .failure(error(record, .value, .unknownState(name, suggestion: Suggestion.closest(name, among: catalog.state.names))))
        }
        let value: StateValue
        switch catalog.state.initial[variable.index] {
        case .string: value = .string(raw)
        case .integer:
            guard let n = Int(raw) else { return .failure(error(record, .value, .expected("an integer for \(name)", got: JSONValue.quoted(raw)))) }
            value = .integer(n)
        case .boolean:
            guard raw == "true" || raw == "false" else {
                return .failure(error(record, .value, .expected("true or false for \(name)", got: JSONValue.quoted(raw))))
            }
            value = .boolean(raw == "true")
        }
        return .success(.set([(variable, value)]))
    }

    private func popup(_ record: TraceRecord) -> PopupID? {
        record[.popup].flatMap { popups[$0] }
    }

    private func popupError(_ record: TraceRecord) -> LoadError {
        guard let name = record[.popup] else { return missing(.popup, record, what: "the popup") }
        return error(record, .popup, .unknownPopup(name, suggestion: Suggestion.closest(name, among: catalog.popups.map(\.name))))
    }

    private func missing(_ field: TraceLayout.Field, _ record: TraceRecord, what: String? = nil) -> LoadError {
        error(record, field, .expected("\(what ?? "the \(field.rawValue)") in column '\(layout.name(of: field))'", got: "nothing"))
    }

    func error(_ record: TraceRecord, _ field: TraceLayout.Field, _ problem: LoadProblem) -> LoadError {
        LoadError(file: file, location: record.location(field), path: .root, problem: problem)
    }
}
