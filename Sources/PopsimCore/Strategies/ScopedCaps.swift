/// Caps the way teams write them (issue 40): at most `max` shows of a scope — one popup, the
/// popups of a `key`, or of a `level` — in any window of `windowMs`; a popup of a full scope that
/// comes up to show is dropped (`quota`), as Braze drops a message past its own frequency cap
/// and Android a package's toast past its quota (docs/policy.md, `caps`).
///
/// Written `SCOPE:MAX/WINDOW`, several joined by `;` (commas are `--sweep`'s): a scope is a popup's
/// name, `key:NAME` or `level:NAME`; a window is milliseconds, or a number with `s`, `m`, `h` or
/// `d` (`campaign:2/24h;key:promo:5/1h`). The empty text is no cap.
struct ScopedCap: Sendable, Equatable {
    enum Scope: Sendable, Equatable {
        case popup(String), key(String), level(String)
    }

    var scope: Scope
    var max: Int
    var windowMs: Int

    /// The caps a text says, or nil when a part is not `SCOPE:MAX/WINDOW`.
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
        guard let colon = part.lastIndex(of: ":"), let slash = part.lastIndex(of: "/"), colon < slash else { return nil }
        let name = String(part[..<colon]), count = part[part.index(after: colon)..<slash], window = String(part[part.index(after: slash)...])
        guard let max = Int(count), max >= 0, max < 1 << 40, let ms = milliseconds(window), !name.isEmpty else { return nil }
        let scope: Scope
        if name.hasPrefix("key:") { scope = .key(String(name.dropFirst(4))) } else if name.hasPrefix("level:") {
            scope = .level(String(name.dropFirst(6)))
        } else {
            scope = .popup(name)
        }
        if case .key(let k) = scope, k.isEmpty { return nil }
        if case .level(let l) = scope, l.isEmpty { return nil }
        return ScopedCap(scope: scope, max: max, windowMs: ms)
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

/// The shows each cap has counted in a run: a popup comes up against every cap that covers it.
struct ScopedCapCounter: Sendable {
    private let caps: [ScopedCap]
    /// Per popup, the caps that cover it.
    private let ofPopup: [[Int]]
    /// Per cap, the times of its shows, in order (trimmed to its window).
    private var shows: [[Int]]

    init(_ caps: [ScopedCap], _ scenario: Scenario) {
        self.caps = caps
        // No caps, no table: a run without them pays nothing per popup.
        var ofPopup = [[Int]](repeating: [], count: caps.isEmpty ? 0 : scenario.popups.count)
        for (c, cap) in caps.enumerated() { for p in cap.members(in: scenario) { ofPopup[Int(p.index)].append(c) } }
        self.ofPopup = ofPopup
        shows = Array(repeating: [], count: caps.count)
    }

    /// Whether a cap covering `p` has had its `max` shows in the window up to `now`.
    func full(_ p: PopupID, at now: Int) -> Bool {
        guard Int(p.index) < ofPopup.count else { return false }
        return ofPopup[Int(p.index)].contains { c in
            shows[c].reduce(0) { $0 + (now - $1 < caps[c].windowMs ? 1 : 0) } >= caps[c].max
        }
    }

    /// A show of `p` at `now`, in every cap covering it.
    mutating func record(_ p: PopupID, at now: Int) {
        guard Int(p.index) < ofPopup.count else { return }
        for c in ofPopup[Int(p.index)] {
            shows[c].removeAll { now - $0 >= caps[c].windowMs }
            shows[c].append(now)
        }
    }
}
