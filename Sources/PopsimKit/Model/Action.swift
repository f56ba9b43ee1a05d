/// One thing a scenario makes happen: the body of an event, or of a `then` entry.
public enum Action: Sendable {
    /// Popups handed to the scheduler, in this order.
    case enqueue([PopupID])
    /// The user closes the popup: the same as pressing its `close` button.
    case dismiss(PopupID)
    case press(PopupID, button: String)
    case set([(VariableID, StateValue)])
    case suspend
    case resume
    case trigger
    case remove(PopupID)
    case clear
    case navigate(Navigation, then: [Action])

    /// The word that names the action in a scenario file.
    public var keyword: String {
        switch self {
        case .enqueue: return "enqueue"
        case .dismiss: return "dismiss"
        case .press: return "press"
        case .set: return "set"
        case .suspend: return "suspend"
        case .resume: return "resume"
        case .trigger: return "trigger"
        case .remove: return "remove"
        case .clear: return "clear"
        case .navigate(let n, _): return n.keyword
        }
    }
}

/// A navigation-stack change (design.md §5a); `screen` follows it when the transition completes.
public enum Navigation: Sendable, Equatable {
    case push(String)
    case pop
    case popToRoot
    case popTo(String)
    case replace(String)

    public var keyword: String {
        switch self {
        case .push: return "push"
        case .pop: return "pop"
        case .popToRoot: return "popToRoot"
        case .popTo: return "popTo"
        case .replace: return "replace"
        }
    }
}
