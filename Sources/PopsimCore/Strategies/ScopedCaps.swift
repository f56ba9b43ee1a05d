/// Caps and pacing the way teams write them (issue 40), on a scope — one popup, the popups of a
/// `key`, or of a `level` — beside the global knobs:
/// - `SCOPE:MAX/WINDOW`: at most `max` shows of the scope in any window of `windowMs`; a popup of
///   a full scope that comes up to show is dropped (`quota`), as Braze drops a message past its
///   own frequency cap and Android a package's toast past its quota;
/// - `SCOPE:gap=DURATION`: least time between two shows of the scope (Braze's minimum interval,
///   per message);
/// - `SCOPE:cooldown=DURATION`: least time from a popup of the scope gone to the next show of the
///   scope (SwiftMessages' `pauseBetweenMessages`, per scope).
/// A popup its scope's gap or cooldown holds back keeps its place in line while the popups behind
/// it that nothing holds show; it is retried when the scope allows (docs/policy.md, `caps`).
///
/// Several are joined by `;` (commas are `--sweep`'s): `campaign:2/24h;campaign:gap=30s`. A
/// duration is milliseconds, or a number with `s`, `m`, `h` or `d`. The empty text is none.
struct ScopedCap: Sendable, Equatable {
    enum Scope: Sendable, Equatable {
        case popup(String), key(String), level(String)
    }

    enum Limit: Sendable, Equatable {
        case cap(max: Int, windowMs: Int)
        case gap(ms: Int)
        case cooldown(ms: Int)
    }

    var scope: Scope
    var limit: Limit

    init(scope: Scope, limit: Limit) {
        self.scope = scope
        self.limit = limit
    }

    init(scope: Scope, max: Int, windowMs: Int) {
        self.init(scope: scope, limit: .cap(max: max, windowMs: windowMs))
    }

    /// The rules a text says, or nil when a part is not `SCOPE:RULE`.
    static func parseAll(_ text: String) -> [ScopedCap]? {
        guard !text.isEmpty else { return [] }
        var caps: [ScopedCap] = []
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let cap = parse(String(part)) else { return nil }
            caps.append(cap)
        }
        return caps
    }

    static func parse(_ part: String) -> ScopedCap? {
        guard let colon = part.lastIndex(of: ":") else { return nil }
        let name = String(part[..<colon]), rule = String(part[part.index(after: colon)...])
        guard !name.isEmpty, let limit = limit(rule) else { return nil }
        let scope: Scope
        if name.hasPrefix("key:") { scope = .key(String(name.dropFirst(4))) } else if name.hasPrefix("level:") {
            scope = .level(String(name.dropFirst(6)))
        } else {
            scope = .popup(name)
        }
        if case .key(let k) = scope, k.isEmpty { return nil }
        if case .level(let l) = scope, l.isEmpty { return nil }
        return ScopedCap(scope: scope, limit: limit)
    }

    /// `MAX/WINDOW`, `gap=DURATION` or `cooldown=DURATION`.
    static func limit(_ rule: String) -> Limit? {
        if rule.hasPrefix("gap=") { return milliseconds(String(rule.dropFirst(4))).map { .gap(ms: $0) } }
        if rule.hasPrefix("cooldown=") { return milliseconds(String(rule.dropFirst(9))).map { .cooldown(ms: $0) } }
        guard let slash = rule.firstIndex(of: "/"), let max = Int(rule[..<slash]), max >= 0, max < 1 << 40,
              let ms = milliseconds(String(rule[rule.index(after: slash)...])) else { return nil }
        return .cap(max: max, windowMs: ms)
    }

    /// What a later rule of the same scope and kind replaces (`caps+=`): a cap of the same
    /// window, the gap, the cooldown.
    func replaces(_ other: ScopedCap) -> Bool {
        guard scope == other.scope else { return false }
        switch (limit, other.limit) {
        case (.cap(_, let a), .cap(_, let b)): return a == b
        case (.gap, .gap), (.cooldown, .cooldown): return true
        default: return false
        }
    }

    /// `base` with `added` joined in: each added rule replaces the base's rule of the same scope
    /// and kind, or is appended (what `caps+=` and a swept scope do to a policy's own caps).
    static func joined(_ base: [ScopedCap], _ added: [ScopedCap]) -> [ScopedCap] {
        var out = base
        for a in added {
            if let i = out.firstIndex(where: { a.replaces($0) }) { out[i] = a } else { out.append(a) }
        }
        return out
    }

    /// As written, `;` between rules.
    static func text(_ caps: [ScopedCap]) -> String { caps.map(\.text).joined(separator: ";") }

    var text: String {
        switch limit {
        case .cap(let max, let windowMs): return "\(scopeText):\(max)/\(Self.durationText(windowMs))"
        case .gap(let ms): return "\(scopeText):gap=\(Self.durationText(ms))"
        case .cooldown(let ms): return "\(scopeText):cooldown=\(Self.durationText(ms))"
        }
    }

    /// The largest unit that divides it: `24h`, `30s`, `1500`.
    static func durationText(_ ms: Int) -> String {
        for (unit, size) in [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)] where ms % size == 0 {
            return "\(ms / size)\(unit)"
        }
        return String(ms)
    }

    /// `60000`, `45s`, `30m`, `24h`, `7d`: at least 1 ms, at most about 34 years.
    static func milliseconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
        var digits = Substring(text), unit = 1
        if let last = digits.last, let u = units[last] {
            unit = u
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int(digits), n >= 1, n <= (1 << 40) / unit else { return nil }
        return n * unit
    }

    /// The popups of `scenario` it covers; empty when it names none.
    func members(in scenario: Scenario) -> [PopupID] {
        scenario.popups.indices.filter { i in
            let p = scenario.popups[i]
            switch scope {
            case .popup(let name): return p.name == name
            case .key(let key): return p.key == key
            case .level(let level): return p.level?.rawValue == level
            }
        }.map { PopupID($0) }
    }

    /// The scope as written.
    var scopeText: String {
        switch scope {
        case .popup(let name): return name
        case .key(let key): return "key:" + key
        case .level(let level): return "level:" + level
        }
    }
}

/// What each scoped rule has counted in a run: a popup comes up against every rule that covers
/// it — its caps (a drop), its gap and cooldown (a wait).
struct ScopedCapCounter: Sendable {
    private let caps: [ScopedCap]
    /// Per popup, the rules that cover it.
    private var ofPopup: [[Int]]
    /// Per rule: a cap's shows, in order (trimmed to its window); a gap's last show (returns
    /// included, as the global gap); a cooldown's last popup gone.
    private var shows: [[Int]]
    private var last: [Int?]
    /// Whether a rule may hold a popup back (a gap or a cooldown): else no entry is asked.
    let paces: Bool

    /// A new instance of `base` (`Strategy.instanceAdded`) is in its popup's scopes.
    mutating func addInstance(of base: PopupID) {
        guard !ofPopup.isEmpty else { return }
        ofPopup.append(ofPopup[Int(base.index)])
    }

    init(_ caps: [ScopedCap], _ scenario: Scenario) {
        self.caps = caps
        // No rules, no table: a run without them pays nothing per popup.
        var ofPopup = [[Int]](repeating: [], count: caps.isEmpty ? 0 : scenario.popups.count)
        for (c, cap) in caps.enumerated() { for p in cap.members(in: scenario) { ofPopup[Int(p.index)].append(c) } }
        self.ofPopup = ofPopup
        shows = Array(repeating: [], count: caps.count)
        last = Array(repeating: nil, count: caps.count)
        paces = caps.contains { if case .cap = $0.limit { return false } else { return true } }
    }

    /// Whether a cap covering `p` has had its `max` shows in the window up to `now`.
    func full(_ p: PopupID, at now: Int) -> Bool {
        guard Int(p.index) < ofPopup.count else { return false }
        return ofPopup[Int(p.index)].contains { c in
            guard case .cap(let max, let windowMs) = caps[c].limit else { return false }
            return shows[c].reduce(0) { $0 + (now - $1 < windowMs ? 1 : 0) } >= max
        }
    }

    /// The gap or cooldown of a scope of `p` that holds it back longest past `now`, and until
    /// when; nil when none does.
    func held(_ p: PopupID, at now: Int) -> (reason: HoldReason, until: Int)? {
        guard Int(p.index) < ofPopup.count else { return nil }
        var found: (reason: HoldReason, until: Int)?
        for c in ofPopup[Int(p.index)] {
            guard let at = last[c] else { continue }
            let hold: (HoldReason, Int)
            switch caps[c].limit {
            case .cap: continue
            case .gap(let ms): hold = (.minimumGap, at.plus(ms))
            case .cooldown(let ms): hold = (.cooldown, at.plus(ms))
            }
            if hold.1 > (found?.until ?? now) { found = hold }
        }
        return found
    }

    /// A show of `p` at `now`, in every rule covering it; `counted: false` (a preempted popup's
    /// return) moves only the gap.
    mutating func record(_ p: PopupID, at now: Int, counted: Bool = true) {
        guard Int(p.index) < ofPopup.count else { return }
        for c in ofPopup[Int(p.index)] {
            switch caps[c].limit {
            case .cap(_, let windowMs):
                guard counted else { continue }
                shows[c].removeAll { now - $0 >= windowMs }
                shows[c].append(now)
            case .gap: last[c] = now
            case .cooldown: continue
            }
        }
    }

    /// `p` gone at `now`: the cooldowns covering it start.
    mutating func recordGone(_ p: PopupID, at now: Int) {
        guard Int(p.index) < ofPopup.count else { return }
        for c in ofPopup[Int(p.index)] {
            if case .cooldown = caps[c].limit { last[c] = now }
        }
    }

}
