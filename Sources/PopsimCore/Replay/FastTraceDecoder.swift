/// A plain CSV row decoded from its bytes: the user's bytes and the entry, or nil for anything
/// not plainly valid (then `TraceDecoder` decodes the row again and words the error).
///
/// Names (actions, popups) are looked up by bytes in `NameTable`s; only a value that an action
/// needs (a state value, a button, a screen) becomes a String.
struct FastTraceDecoder: Sendable {
    let decoder: TraceDecoder
    private var words = NameTable()
    private var popups = NameTable()
    /// The catalog's state names, looked up by the bytes before a `set` value's `=`.
    private var variables = NameTable()
    /// Per word id: the action kind, or nil for `shown` (-1) and `dismissed` (-2).
    private let kinds: [ActionKind?]

    init(_ decoder: TraceDecoder) {
        self.decoder = decoder
        var kinds: [ActionKind?] = []
        for kind in ActionKind.allCases {
            words.insert(kind.keyword, id: Int32(kinds.count))
            kinds.append(kind)
        }
        for word in TraceDecoder.observations {
            words.insert(word, id: Int32(kinds.count))
            kinds.append(nil)
        }
        self.kinds = kinds
        for (i, p) in decoder.catalog.popups.enumerated() { popups.insert(p.name, id: Int32(i)) }
        for (i, name) in decoder.catalog.state.names.enumerated() { variables.insert(name, id: Int32(i)) }
    }

    /// `name=value` as a `set`, read from its bytes; nil when it is not a valid one.
    private func set(_ bytes: UnsafeBufferPointer<UInt8>) -> Action? {
        guard let eq = bytes.firstIndex(of: UInt8(ascii: "=")),
              let v = variables.lookup(UnsafeBufferPointer(rebasing: bytes[..<eq])).map(Int.init) else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[(eq + 1)...])
        let variable = VariableID(index: v)
        switch decoder.catalog.state.initial[v] {
        case .string: return .set([(variable, .string(String(decoding: raw, as: UTF8.self)))])
        case .integer:
            // As `Int(String)` reads it: an optional sign, then digits.
            return Int(String(decoding: raw, as: UTF8.self)).map { .set([(variable, .integer($0))]) }
        case .boolean:
            if raw.elementsEqual("true".utf8) { return .set([(variable, .boolean(true))]) }
            if raw.elementsEqual("false".utf8) { return .set([(variable, .boolean(false))]) }
            return nil
        }
    }

    func decode(_ f: TraceFields) -> (UnsafeBufferPointer<UInt8>, TraceEntry)? {
        guard let user = f[.user], !user.isEmpty, let timeBytes = f[.time], let word = f[.action],
              let time = TraceTime.milliseconds(timeBytes, unit: decoder.layout.timeUnit),
              let w = words.lookup(word) else { return nil }
        let popup = f[.popup].flatMap { $0.isEmpty ? nil : popups.lookup($0).map { PopupID(Int($0)) } }
        let valueBytes = f[.value].flatMap { $0.isEmpty ? nil : $0 }
        let kind: TraceEntry.Kind
        if let action = kinds[Int(w)] {
            if action == .set {
                guard let valueBytes, let a = set(valueBytes) else { return nil }
                return (user, TraceEntry(time: time, kind: .action(a), row: f.row, location: SourceLocation(line: f.line, column: f.column(.user))))
            }
            let value = valueBytes.map { String(decoding: $0, as: UTF8.self) }
            switch action.argument {
            case .popups, .popup:
                guard let p = popup else { return nil }
                kind = .action(action == .dismiss ? .dismiss(p) : action == .remove ? .remove(p) : .enqueue(p))
            case .state:
                return nil
            case .press:
                guard let p = popup, let value else { return nil }
                kind = .action(.press(p, button: value))
            case .flag:
                switch action {
                case .suspend: kind = .action(.suspend)
                case .resume: kind = .action(.resume)
                case .trigger: kind = .action(.trigger)
                case .clear: kind = .action(.clear)
                case .pop: kind = .action(.navigate(.pop, then: []))
                default: kind = .action(.navigate(.popToRoot, then: []))
                }
            case .screen:
                guard let value else { return nil }
                switch action {
                case .push: kind = .action(.navigate(.push(value), then: []))
                case .popTo: kind = .action(.navigate(.popTo(value), then: []))
                default: kind = .action(.navigate(.replace(value), then: []))
                }
            case .timerTarget:
                // A popup that is named and unknown: the Strings way words the error.
                if f[.popup].map({ !$0.isEmpty }) == true && popup == nil { return nil }
                let target = popup.map { TimerTarget.popup($0) } ?? .all
                kind = .action(action == .pauseTimers ? .pauseTimers(target) : .resumeTimers(target))
            }
        } else {
            guard let p = popup else { return nil }
            kind = w == Int32(kinds.count - 2) ? .shown(p) : .dismissed(p, button: valueBytes.map { String(decoding: $0, as: UTF8.self) })
        }
        return (user, TraceEntry(time: time, kind: kind, row: f.row, location: SourceLocation(line: f.line, column: f.column(.user))))
    }
}

/// A plain CSV row (no quotes, ASCII): where each of the five fields stands in its line's bytes.
public struct TraceFields {
    public var line: Int
    public var row: Int
    let bytes: UnsafeBufferPointer<UInt8>
    /// Per field: start and end offsets in `bytes`, or -1 when the row has none.
    var starts: (Int, Int, Int, Int, Int)
    var ends: (Int, Int, Int, Int, Int)

    subscript(_ field: TraceLayout.Field) -> UnsafeBufferPointer<UInt8>? {
        let (s, e) = range(field)
        return s < 0 ? nil : UnsafeBufferPointer(rebasing: bytes[s..<e])
    }

    func column(_ field: TraceLayout.Field) -> Int { max(0, range(field).0) + 1 }

    func range(_ field: TraceLayout.Field) -> (Int, Int) {
        switch field {
        case .user: (starts.0, ends.0)
        case .time: (starts.1, ends.1)
        case .action: (starts.2, ends.2)
        case .popup: (starts.3, ends.3)
        case .value: (starts.4, ends.4)
        }
    }
}
