/// Display timers as a strategy follows them beside the engine's, for libraries whose timers
/// resume with what they had left (sonner's pause on hover; `policy`'s `pauseTimers: resume` and
/// a preempted popup's return with `timerOnReturn: resume`): when each countdown ends, and what a
/// paused one has left.
///
/// Why one part: `policy` and sonner each kept start, length and a paused remainder, and worked
/// out a paused timer's time left two ways. Contract: `start` runs a countdown (none for a
/// `forever` popup); `pause` stops a running one and keeps its time left, at least `floor` ms;
/// `resume` runs it again with that; `clear` forgets both.
struct DisplayTimers: Sendable {
    /// When each running countdown ends (nil: none running: never started, forever, or paused).
    private var due: [Int?]
    /// What each paused countdown has left.
    private var left: [Int?]

    init(popups: Int) {
        due = Array(repeating: nil, count: popups)
        left = due
    }

    /// Room for a new instance (`Strategy.instanceAdded`).
    mutating func addInstance() {
        due.append(nil)
        left.append(nil)
    }

    /// A countdown of `duration` ms starts for `p` (nil: it never ends).
    mutating func start(_ p: PopupID, at now: Int, duration: Int?) {
        due[Int(p.index)] = duration.map { now.plus($0) }
        left[Int(p.index)] = nil
    }

    /// The time `p`'s running countdown has left, at least `floor` ms; nil when none runs.
    func timeLeft(_ p: PopupID, at now: Int, floor: Int) -> Int? {
        due[Int(p.index)].map { max(floor, $0 - now) }
    }

    /// What `p`'s paused countdown has left, if it is paused.
    func paused(_ p: PopupID) -> Int? { left[Int(p.index)] }

    /// Stops `p`'s running countdown, keeping its time left (at least `floor` ms), which it returns.
    mutating func pause(_ p: PopupID, at now: Int, floor: Int) -> Int? {
        guard let remaining = timeLeft(p, at: now, floor: floor) else { return nil }
        left[Int(p.index)] = remaining
        due[Int(p.index)] = nil
        return remaining
    }

    /// Runs `p`'s paused countdown again with what it had left, which it returns.
    mutating func resume(_ p: PopupID, at now: Int) -> Int? {
        guard let remaining = left[Int(p.index)] else { return nil }
        left[Int(p.index)] = nil
        due[Int(p.index)] = now.plus(remaining)
        return remaining
    }

    mutating func clear(_ p: PopupID) {
        due[Int(p.index)] = nil
        left[Int(p.index)] = nil
    }
}
