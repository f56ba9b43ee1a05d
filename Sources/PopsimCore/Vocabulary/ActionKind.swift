/// Every action a scenario's script can take, declared once with its meaning (convention 27).
///
/// The loader (both the tree and the streaming path), the generator, lint, the help text and the
/// docs' tables read this table. Adding an action is its case here (keyword, argument, meaning)
/// plus its handling in the engine (`Engine.perform`), and in the strategies that model it.
public enum ActionKind: String, CaseIterable, Sendable {
    case enqueue, dismiss, press, set, suspend, resume, trigger, remove, clear
    case clearQueue, clearScreen, clearUpTo
    case push, pop, popToRoot, popTo, replace
    case pauseTimers, resumeTimers

    /// Its place in `allCases` (for counting into an array without hashing).
    public var ordinal: UInt8 {
        switch self {
        case .enqueue: 0
        case .dismiss: 1
        case .press: 2
        case .set: 3
        case .suspend: 4
        case .resume: 5
        case .trigger: 6
        case .remove: 7
        case .clear: 8
        case .clearQueue: 9
        case .clearScreen: 10
        case .clearUpTo: 11
        case .push: 12
        case .pop: 13
        case .popToRoot: 14
        case .popTo: 15
        case .replace: 16
        case .pauseTimers: 17
        case .resumeTimers: 18
        }
    }

    /// How many kinds there are (`allCases.count`, as a constant; `TraceVocabularyTests` checks it).
    public static let count: UInt8 = 19

    /// The kind of an ordinal (`ordinal`'s inverse); nil past the last.
    public init?(ordinal: UInt8) {
        switch ordinal {
        case 0: self = .enqueue
        case 1: self = .dismiss
        case 2: self = .press
        case 3: self = .set
        case 4: self = .suspend
        case 5: self = .resume
        case 6: self = .trigger
        case 7: self = .remove
        case 8: self = .clear
        case 9: self = .clearQueue
        case 10: self = .clearScreen
        case 11: self = .clearUpTo
        case 12: self = .push
        case 13: self = .pop
        case 14: self = .popToRoot
        case 15: self = .popTo
        case 16: self = .replace
        case 17: self = .pauseTimers
        case 18: self = .resumeTimers
        default: return nil
        }
    }

    /// The shape of the value after the keyword.
    public enum Argument: Sendable, Equatable {
        /// A popup id, or a non-empty list of them (one batch).
        case popups
        /// One popup id.
        case popup
        /// `{"popup": id, "button": name}`.
        case press
        /// `{"name": value, …}` over declared state.
        case state
        /// `true`.
        case flag
        /// A screen name.
        case screen
        /// A popup id, or `true` for every popup.
        case timerTarget
        /// A priority, as a popup's `priority` is written (an integer or a name).
        case priority
    }

    /// The key that names it in a scenario file.
    public var keyword: String { rawValue }

    public var argument: Argument {
        switch self {
        case .enqueue: return .popups
        case .dismiss, .remove: return .popup
        case .press: return .press
        case .set: return .state
        case .suspend, .resume, .trigger, .clear, .clearQueue, .clearScreen, .pop, .popToRoot: return .flag
        case .push, .popTo, .replace: return .screen
        case .pauseTimers, .resumeTimers: return .timerTarget
        case .clearUpTo: return .priority
        }
    }

    /// Whether the strategy is told of it, and so may not model it (lint says so). The others the
    /// engine carries out the same way under every strategy.
    public var reachesStrategy: Bool {
        switch self {
        case .suspend, .resume, .trigger, .remove, .clear, .clearQueue, .clearScreen, .clearUpTo,
             .pauseTimers, .resumeTimers: return true
        case .enqueue, .dismiss, .press, .set, .push, .pop, .popToRoot, .popTo, .replace: return false
        }
    }

    /// A navigation-stack change: it takes `navMs` and may carry `then`.
    public var isNavigation: Bool {
        switch self {
        case .push, .pop, .popToRoot, .popTo, .replace: return true
        default: return false
        }
    }

    /// What it does, in one line (help, docs).
    public var meaning: String {
        switch self {
        case .enqueue: return "hand popups to the scheduler; a list is one batch, in its order"
        case .dismiss: return "the user presses the popup's close button"
        case .press: return "the user presses a named button of the popup"
        case .set: return "change declared state at once"
        case .suspend: return "the app suspends the scheduler"
        case .resume: return "the app resumes the scheduler"
        case .trigger: return "the app asks the scheduler to try again"
        case .remove: return "the app takes one popup back (queued or on screen)"
        case .clear: return "the app empties the scheduler"
        case .clearQueue: return "the app drops every waiting popup; what is on screen stays"
        case .clearScreen: return "the app takes back what is on screen; the waiting popups stay"
        case .clearUpTo: return "the app takes back every popup of this priority or lower, waiting or on screen"
        case .push: return "push a screen on the navigation stack"
        case .pop: return "pop the top screen"
        case .popToRoot: return "pop to the root screen"
        case .popTo: return "pop back to a screen on the stack"
        case .replace: return "replace the top screen"
        case .pauseTimers: return "the user holds display timers (hover, focus)"
        case .resumeTimers: return "the user releases display timers"
        }
    }

    /// A one-line example of an event with it.
    public var example: String {
        switch argument {
        case .popups: return #"{"at": 0, "enqueue": ["upgrade", "rate"]}"#
        case .popup: return #"{"at": 900, "\#(keyword)": "rate"}"#
        case .press: return #"{"at": 900, "press": {"popup": "rate", "button": "ok"}}"#
        case .state: return #"{"at": 500, "set": {"screen": "home"}}"#
        case .flag: return #"{"at": 100, "\#(keyword)": true}"#
        case .screen: return #"{"at": 100, "\#(keyword)": "settings"}"#
        case .timerTarget: return #"{"at": 100, "\#(keyword)": true}"#
        case .priority: return #"{"at": 100, "\#(keyword)": 50}"#
        }
    }

    /// The action, from its decoded argument; nil when the argument is not of its shape.
    @inline(__always)
    func action(_ value: ActionArgument, then: [Action]) -> Action? {
        switch (self, value) {
        case (.enqueue, .popups(let ids)): return ids.count == 1 ? .enqueue(ids[0]) : .enqueueMany(ids)
        case (.enqueue, .popup(let p)): return .enqueue(p)
        case (.dismiss, .popup(let p)): return .dismiss(p)
        case (.remove, .popup(let p)): return .remove(p)
        case (.press, .press(let p, let button)): return .press(p, button: button)
        case (.set, .state(let changes)): return .set(changes)
        case (.suspend, .flag): return .suspend
        case (.resume, .flag): return .resume
        case (.trigger, .flag): return .trigger
        case (.clear, .flag): return .clear
        case (.clearQueue, .flag): return .clearQueue
        case (.clearScreen, .flag): return .clearScreen
        case (.clearUpTo, .priority(let n)): return .clearUpTo(n)
        case (.pop, .flag): return .navigate(.pop, then: then)
        case (.popToRoot, .flag): return .navigate(.popToRoot, then: then)
        case (.push, .screen(let s)): return .navigate(.push(s), then: then)
        case (.popTo, .screen(let s)): return .navigate(.popTo(s), then: then)
        case (.replace, .screen(let s)): return .navigate(.replace(s), then: then)
        case (.pauseTimers, .timerTarget(let t)): return .pauseTimers(t)
        case (.resumeTimers, .timerTarget(let t)): return .resumeTimers(t)
        default: return nil
        }
    }
}

/// The streaming loader's keyword lookup, once per event (`KeywordTable` over `ActionKind`).
struct ActionKeywords {
    private let table = KeywordTable(ActionKind.allCases.map(\.keyword))
    private let kinds = ActionKind.allCases

    func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> ActionKind? {
        table.index(bytes).map { kinds[$0] }
    }
}

/// An action's argument once decoded, by either loading path.
enum ActionArgument {
    case popups([PopupID])
    case popup(PopupID)
    case press(PopupID, String)
    case state([(VariableID, StateValue)])
    case flag
    case screen(String)
    case timerTarget(TimerTarget)
    case priority(Int)
}
