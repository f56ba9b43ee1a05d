import Dispatch
import PopsimSystem

/// The progress of an exploration on the terminal: variants done of all, failures so far, and
/// the time left at the pace so far. Safe to update from several workers.
final class ExploreProgress: Sendable {
    private let total: Int
    private let line: ProgressLine?
    private let start = DispatchTime.now().uptimeNanoseconds
    private let counts = System.Locked((done: 0, failed: 0))

    init(total: Int, line: ProgressLine?) {
        self.total = total
        self.line = line
    }

    func add(_ judged: Int, _ broke: Int) {
        guard let line else { return }
        let (d, f) = counts.withLock { c in
            c.done += judged
            c.failed += broke
            return (c.done, c.failed)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let left = d > 0 ? Int(elapsed * Double(total - d) / Double(d)) : 0
        line.update("explore: \(d) of \(total) variants, \(f) failing, about \(left) s left")
    }
}
