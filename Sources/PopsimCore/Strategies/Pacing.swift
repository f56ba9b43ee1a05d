/// When a scheduler lets the next popup show, by what it showed before: a minimum gap since the
/// last show, a cooldown since the last one left, and sliding-window quotas (at most `count`
/// shows in any `windowMs`), per key (an app's package) or for the whole app (key 0).
///
/// Why one part: `policy` (`minGapMs`, `cooldownMs`, `rateCount` per `rateWindowMs`, `dailyCap`),
/// android-toast (background quotas per package, peers.md §5.5) and braze-iam (`dailyCap`) count
/// shows in a sliding window; they counted them three ways.
/// Contract: times never go back. `shows(within:of:)` counts the recorded shows less than `window`
/// ms before `now`, by binary search in each key's sorted history, which is trimmed to the longest
/// window (and `keeping`); `allows` is true when every window has room and the gap has passed.
struct Pacing: Sendable {
    struct Window: Equatable, Sendable {
        var count: Int
        var windowMs: Int
    }

    let windows: [Window]
    let minGapMs: Int
    let cooldownMs: Int
    private let horizon: Int
    private var history: [[Int]]
    /// The last show (returns included) and the last popup gone, over every key.
    private(set) var lastShowAt: Int?
    private var lastGoneAt: Int?

    init(windows: [Window] = [], minGapMs: Int = 0, cooldownMs: Int = 0, keeping: Int = 0, keys: Int = 1) {
        self.windows = windows.filter { $0.count > 0 && $0.windowMs > 0 }
        self.minGapMs = minGapMs
        self.cooldownMs = cooldownMs
        horizon = max(self.windows.map(\.windowMs).max() ?? 0, keeping)
        history = Array(repeating: [], count: keys)
    }

    /// Shows of `key` in the last `window` ms up to `now`.
    func shows(within window: Int, of now: Int, key: Int = 0) -> Int {
        let times = history[key]
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if now - times[mid] < window { high = mid } else { low = mid + 1 }
        }
        return times.count - low
    }

    /// Whether every window of `key` has room and the minimum gap has passed.
    func allows(_ key: Int = 0, at now: Int) -> Bool {
        if minGapMs > 0, let last = lastShowAt, now - last < minGapMs { return false }
        return windows.allSatisfy { shows(within: $0.windowMs, of: now, key: key) < $0.count }
    }

    /// The instant every rule next allows a show (key 0), if later than `now`.
    func until(_ now: Int) -> Int? { longest(now)?.until }

    /// Which rule holds the line at `now` (key 0), if one does: the one that holds it longest.
    func hold(_ now: Int) -> HoldReason? { longest(now)?.reason }

    /// The rule that holds the line longest past `now` (the first of equals) and until when.
    private func longest(_ now: Int) -> (reason: HoldReason, until: Int)? {
        var found: (reason: HoldReason, until: Int)?
        func consider(_ reason: HoldReason, _ at: Int) {
            if at > (found?.until ?? now) { found = (reason, at) }
        }
        if minGapMs > 0, let last = lastShowAt { consider(.minimumGap, last.plus(minGapMs)) }
        if cooldownMs > 0, let gone = lastGoneAt { consider(.cooldown, gone.plus(cooldownMs)) }
        for w in windows where shows(within: w.windowMs, of: now) >= w.count { consider(.rateLimit, freed(w)) }
        return found
    }

    /// When the oldest show that fills window `w` (key 0) leaves it.
    private func freed(_ w: Window) -> Int {
        let times = history[0]
        return times[times.count - w.count].plus(w.windowMs)
    }

    /// A show of `key` at `now`; `counted: false` (a preempted popup's return) moves only the gap.
    mutating func recordShow(_ key: Int = 0, at now: Int, counted: Bool = true) {
        lastShowAt = now
        guard counted else { return }
        history[key].append(now)
        if history[key].count > 64, let first = history[key].first, now - first >= horizon {
            history[key].removeAll { now - $0 >= horizon }
        }
    }

    mutating func recordGone(at now: Int) { lastGoneAt = now }
}
