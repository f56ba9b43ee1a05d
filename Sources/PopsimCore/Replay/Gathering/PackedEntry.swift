/// A trace row's meaning in 12 bytes, interned against a `TraceValues`: the verb's ordinal, a
/// popup (a state variable for `set`, the priority itself for `clearUpTo`; -1 for none) and a
/// value's id (a button, a screen, a setting; -1 for none).
///
/// Contract: `action(values)` rebuilds the action through the vocabulary's own constructor
/// (`ActionKind.action`), from the argument its `ActionKind.Argument` shape calls for; nothing
/// maps a verb by hand, so a new action needs no case here.
public struct PackedEntry: Sendable, Equatable, BitwiseCopyable {
    public var op: UInt8
    public var popup: Int32
    public var value: Int32

    public init(op: UInt8, popup: Int32, value: Int32) {
        self.op = op
        self.popup = popup
        self.value = value
    }

    public var verb: TraceVerb? { TraceVerb(ordinal: op) }

    /// Whether it holds an action (not an observation).
    public var holdsAction: Bool {
        if case .action? = verb { return true }
        return false
    }

    /// Whether `value` is a setting's id (a `set`), not a text's.
    public var holdsSetting: Bool {
        if case .action(let kind)? = verb { return kind.argument == .state }
        return false
    }

    /// The popup of an observation (`shown`, `dismissed`, `dropped`), or of an action about one popup.
    public var popupID: PopupID? { popup >= 0 ? PopupID(Int(popup)) : nil }

    /// The argument of an action of `kind`, from the packed fields; nil when they do not hold one.
    func argument(_ kind: ActionKind, _ values: TraceValues) -> ActionArgument? {
        switch kind.argument {
        case .popups: return popupID.map { .popup($0) } // one popup: the vocabulary takes it without a list
        case .popup: return popupID.map { .popup($0) }
        case .press:
            guard let p = popupID, let button = values.text(value) else { return nil }
            return .press(p, button)
        case .state:
            guard let setting = values.setting(value), popup == Int32(setting.0.index) else { return nil }
            return .state([setting])
        case .flag: return .flag
        case .screen: return values.text(value).map { .screen($0) }
        case .timerTarget: return .timerTarget(popupID.map { .popup($0) } ?? .all)
        case .priority: return .priority(Int(popup))
        }
    }

    /// The action it holds; nil for an observation or fields that do not make one. A setting's
    /// is the one `values` made when it first read it (the same list every time).
    public func action(_ values: TraceValues) -> Action? {
        guard case .action(let kind)? = verb else { return nil }
        if kind.argument == .state { return values.settingAction(value) }
        guard let argument = argument(kind, values) else { return nil }
        return kind.action(argument, then: [])
    }
}
