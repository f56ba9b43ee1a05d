/// A plain CSV row decoded from its bytes: the user's bytes and the entry, or nil for anything
/// not plainly valid (then `TraceDecoder` decodes the row again and words the error).
///
/// Names (actions, popups) are looked up by bytes in `NameTable`s; only a value that an action
/// needs (a state value, a button, a screen) becomes a String.
struct FastTraceDecoder: Sendable {
    let decoder: TraceDecoder
    private var words = NameTable()
    private var popups = NameTable()
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
    }

    func decode(_ f: TraceFields) -> (UnsafeBufferPointer<UInt8>, TraceEntry)? {
        guard let user = f[.user], !user.isEmpty, let timeBytes = f[.time], let word = f[.action],
              let time = TraceTime.milliseconds(timeBytes, unit: decoder.layout.timeUnit),
              let w = words.lookup(word) else { return nil }
        let popup = f[.popup].flatMap { $0.isEmpty ? nil : popups.lookup($0).map { PopupID(Int($0)) } }
        let value = f[.value].flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        let kind: TraceEntry.Kind
        if let action = kinds[Int(w)] {
            switch action.argument {
            case .popups, .popup:
                guard let p = popup else { return nil }
                kind = .action(action == .dismiss ? .dismiss(p) : action == .remove ? .remove(p) : .enqueue(p))
            case .state:
                guard let value, let a = decoder.setAction(value) else { return nil }
                kind = .action(a)
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
            kind = w == Int32(kinds.count - 2) ? .shown(p) : .dismissed(p, button: value)
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
