/// Pacing rules a campaign or toast system applies per key (an app's package, a campaign):
/// sliding-window quotas and a minimum interval since the last display (peers.md §5.5).
///
/// Contract: `allows(key, at:)` is true when every window has room (fewer than `count` displays
/// in the last `windowMs`, the current instant included) and at least `minIntervalMs` has passed
/// since the key's last display; `record(key, at:)` notes a display. Times never go back, so each
/// key's history is a sorted list trimmed to the longest window.
struct RateLimiter {
    struct Window: Equatable {
        var count: Int
        var windowMs: Int
    }

    let windows: [Window]
    let minIntervalMs: Int
    private let horizon: Int
    private var history: [[Int]]

    init(windows: [Window] = [], minIntervalMs: Int = 0, keys: Int) {
        self.windows = windows
        self.minIntervalMs = minIntervalMs
        horizon = max(windows.map(\.windowMs).max() ?? 0, minIntervalMs)
        history = Array(repeating: [], count: keys)
    }

    func allows(_ key: Int, at now: Int) -> Bool {
        let times = history[key]
        if let last = times.last, minIntervalMs > 0, now - last < minIntervalMs { return false }
        for w in windows where times.reduce(0, { $0 + (now - $1 < w.windowMs ? 1 : 0) }) >= w.count {
            return false
        }
        return true
    }

    mutating func record(_ key: Int, at now: Int) {
        history[key].removeAll { now - $0 >= horizon }
        history[key].append(now)
    }
}

/// A small table from a popup's `key` (default `default`) to a dense index, for per-key state.
struct KeyIndex {
    let ofPopup: [Int]
    let count: Int

    init(_ scenario: Scenario, defaultKey: String = "default") {
        var names: [String: Int] = [:]
        ofPopup = scenario.popups.map { popup in
            let key = popup.key ?? defaultKey
            if let i = names[key] { return i }
            names[key] = names.count
            return names.count - 1
        }
        count = names.count
    }

    subscript(_ p: PopupID) -> Int { ofPopup[Int(p.index)] }
}
