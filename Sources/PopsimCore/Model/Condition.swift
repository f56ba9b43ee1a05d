/// A compiled `when` condition: a typed expression over the state, checked at load time.
///
/// Contract: a `Condition` that exists is well typed (the loader rejected everything else), so
/// evaluating it cannot fail. A chain `a && b && c` is one node with its operands, so the tree's
/// depth is bounded by the nesting (`ConditionParser.maxDepth`), however long a chain is:
/// evaluating and releasing it never recurse deeper than that.
public indirect enum Condition: Sendable, Equatable {
    case literal(StateValue)
    case variable(VariableID)
    case not(Condition)
    /// Every operand holds (evaluated left to right, stopping at the first that does not).
    case and([Condition])
    /// Some operand holds (left to right, stopping at the first that does).
    case or([Condition])
    case compare(ComparisonOperator, Condition, Condition)

    /// The value of the expression in `state`.
    public func evaluate(_ state: [StateValue]) -> StateValue {
        switch self {
        case .literal(let v): return v
        case .variable(let id): return state[id.index]
        case .not(let e): return .boolean(!e.holds(state))
        case .and(let operands): return .boolean(operands.allSatisfy { $0.holds(state) })
        case .or(let operands): return .boolean(operands.contains { $0.holds(state) })
        case .compare(let op, let a, let b): return .boolean(op.apply(a.evaluate(state), b.evaluate(state)))
        }
    }

    /// Whether a boolean expression holds in `state` (a non-boolean never holds).
    public func holds(_ state: [StateValue]) -> Bool {
        switch self {
        // The common shapes, read in place: evaluating them built and copied a value per node
        // (a string's retain and release each), a popup's `when` at every scan of a queue.
        case .compare(let op, .variable(let id), .literal(let v)): return op.apply(state[id.index], v)
        case .variable(let id):
            if case .boolean(true) = state[id.index] { return true }
            return false
        case .not(let e): return !e.holds(state)
        case .and(let operands): return operands.allSatisfy { $0.holds(state) }
        case .or(let operands): return operands.contains { $0.holds(state) }
        default:
            if case .boolean(true) = evaluate(state) { return true }
            return false
        }
    }
}


/// The comparison operators of the condition language.
public enum ComparisonOperator: String, Sendable, Equatable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    /// Whether the operator orders its operands (integers only) rather than testing equality.
    var isOrdering: Bool { self != .equal && self != .notEqual }

    func apply(_ a: StateValue, _ b: StateValue) -> Bool {
        switch self {
        case .equal: return a == b
        case .notEqual: return a != b
        default:
            guard case .integer(let x) = a, case .integer(let y) = b else { return false }
            switch self {
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            default: return x >= y
            }
        }
    }
}
