/// The app's navigation stack (design.md §5a): changes apply when their transition completes.
///
/// Contract: each transition takes `navMs` from its event and works on the stack as the earlier
/// ones will leave it; completions come in event order.
/// `replace` pops then pushes with no intermediate screen left behind. A `popTo` a screen not on
/// the stack, or a `pop` at the root, changes nothing.
struct NavigationStack {
    /// The stack as the transitions begun so far will leave it.
    private(set) var target: [String]
    /// Screens that the completed transitions show, oldest first.
    private var inFlight: [String] = []
    let screenVariable: VariableID?

    init(scenario: Scenario) {
        screenVariable = scenario.state.lookup("screen")
        target = []
        target.append(Self.root(scenario, screenVariable))
    }

    static func root(_ scenario: Scenario, _ screenVariable: VariableID?) -> String {
        if let v = screenVariable, case .string(let root) = scenario.state.initial[v.index] { return root }
        return ""
    }

    /// At the start again, for a scenario of the same state (its `screen` found once).
    mutating func reset(scenario: Scenario) {
        target.empty()
        target.append(Self.root(scenario, screenVariable))
        inFlight.empty()
    }

    enum Outcome { case started, unchanged, notOnStack }

    /// Applies `move` to the target stack.
    mutating func begin(_ move: Navigation) -> Outcome {
        switch move {
        case .push(let screen):
            target.append(screen)
        case .pop:
            guard target.count > 1 else { return .unchanged }
            target.removeLast()
        case .popToRoot:
            guard target.count > 1 else { return .unchanged }
            target.removeLast(target.count - 1)
        case .popTo(let screen):
            guard let i = target.lastIndex(of: screen) else { return .notOnStack }
            guard i < target.count - 1 else { return .unchanged }
            target.removeLast(target.count - 1 - i)
        case .replace(let screen):
            target[target.count - 1] = screen
        }
        inFlight.append(target[target.count - 1])
        return .started
    }

    /// The screen the oldest transition in flight shows.
    mutating func complete() -> String {
        inFlight.isEmpty ? target[target.count - 1] : inFlight.removeFirst()
    }
}
