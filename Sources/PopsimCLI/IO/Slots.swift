import Dispatch

/// Results that parallel workers fill, one slot each, read once all are done: the order of the
/// output is the order of the slots, whatever the order the workers finish in.
final class Slots<T: Sendable>: @unchecked Sendable {
    private var values: [T?]
    private var filled = 0
    private let semaphore = DispatchSemaphore(value: 1)

    init(count: Int) { values = Array(repeating: nil, count: count) }

    /// Stores slot `i`; returns how many slots are filled.
    @discardableResult
    func set(_ i: Int, _ value: T) -> Int {
        semaphore.wait()
        defer { semaphore.signal() }
        values[i] = value
        filled += 1
        return filled
    }

    func get(_ i: Int) -> T? {
        semaphore.wait()
        defer { semaphore.signal() }
        return values[i]
    }

    var all: [T?] {
        semaphore.wait()
        defer { semaphore.signal() }
        return values
    }
}
