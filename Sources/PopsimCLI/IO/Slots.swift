import PopsimSystem

/// Results that parallel workers fill, one slot each, read once all are done: the order of the
/// output is the order of the slots, whatever the order the workers finish in.
final class Slots<T: Sendable>: Sendable {
    private let state: System.Locked<(values: [T?], filled: Int)>

    init(count: Int) { state = System.Locked((Array(repeating: nil, count: count), 0)) }

    /// Stores slot `i`; returns how many slots are filled.
    @discardableResult
    func set(_ i: Int, _ value: T) -> Int {
        state.withLock { s in
            s.values[i] = value
            s.filled += 1
            return s.filled
        }
    }

    func get(_ i: Int) -> T? { state.withLock { $0.values[i] } }

    var all: [T?] { state.withLock { $0.values } }
}
