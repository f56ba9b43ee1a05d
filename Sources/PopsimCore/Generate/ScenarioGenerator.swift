/// `popsim gen`: writes a valid, realistic scenario of any size from a seed.
///
/// Contract: the same options give the same bytes. Popups get a mix of priorities, conditions
/// (`when` over `screen`, `level`, `loggedIn`), untriggered and switch behaviours, toasts
/// (`duration`), the peer strategies' fields (arrival, dropQueued, dedupeKey, delayMs, minMs,
/// ttlMs, maxShows), simulated users (`respond`), `then` flows (only to popups further down the
/// list, so a flow always ends), keys, levels and animation times. Events are spread over time with
/// small random gaps and drawn from `mix` (weights per action kind).
public struct ScenarioGenerator: Sendable {
    public var events: Int
    public var seed: UInt64
    public var popups: Int
    public var strategy: String
    public var mix: [(ActionKind, Int)]

    /// Weights per action kind; `push` also stands for `pop` (half of its draws).
    public static let defaultMix: [(ActionKind, Int)] = [
        (.enqueue, 60), (.dismiss, 12), (.press, 4), (.set, 10), (.trigger, 3),
        (.suspend, 2), (.resume, 2), (.remove, 5), (.clear, 1), (.push, 1),
        (.pauseTimers, 1), (.resumeTimers, 1),
    ]
    static let screens = ["home", "feed", "settings", "profile"]
    /// Popups' priorities and `clearUpTo`'s thresholds, as JSON.
    static let priorities = ["1", "50", "100", "1000", "\"high\"", "\"low\""]

    public init(events: Int, seed: UInt64, popups: Int = 50, strategy: String = "fg", mix: [(ActionKind, Int)] = defaultMix) {
        self.events = events
        self.seed = seed
        self.popups = popups
        self.strategy = strategy
        self.mix = mix
    }

    /// The scenario's text; `progress`, if given, hears every 65,536 events how many are written.
    public func generate(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) -> String {
        var random = SplitMix64(seed: seed)
        var out = "{\n  \"popsim\": 1,\n  \"name\": \"generated \(events) events, seed \(seed)\",\n"
        out += "  \"strategy\": \"\(strategy)\",\n"
        out += "  \"state\": {\"screen\": \"home\", \"level\": 1, \"loggedIn\": false},\n"
        out += "  \"popups\": {\n"
        for i in 0..<popups {
            out += "    \"p\(i)\": " + popup(i, &random) + (i < popups - 1 ? ",\n" : "\n")
        }
        out += "  },\n  \"events\": [\n"
        out.reserveCapacity(out.utf8.count + events * 40)
        var t = 0
        let total = mix.reduce(0) { $0 + max(0, $1.1) }
        for i in 0..<events {
            t += random.below(4) == 0 ? 0 : 1 + random.below(120)
            // The per-line hot loop writes the event in `JSONObjectWriter`'s layout directly.
            let (key, value) = action(pick(&random, total: total), &random)
            out += "    {\"at\": \(t), \""
            out += key
            out += "\": "
            out += value
            out += i < events - 1 ? "},\n" : "}\n"
            if i & 0xFFFF == 0xFFFF { progress?(i + 1, events) }
        }
        return out + "  ]\n}\n"
    }

    func pick(_ random: inout SplitMix64, total: Int) -> ActionKind {
        var roll = random.below(max(1, total))
        for (kind, weight) in mix where weight > 0 {
            if roll < weight { return kind }
            roll -= weight
        }
        return .enqueue
    }

    /// A popup's name as JSON (`"p12"`: nothing to escape).
    func popupName(_ random: inout SplitMix64) -> String { "\"p\(random.below(popups))\"" }

    /// One action of `kind`, written by the shape of its argument (`ActionKind.argument`): its key,
    /// and its value as JSON.
    func action(_ kind: ActionKind, _ random: inout SplitMix64) -> (String, String) {
        let key = kind.keyword
        func object(_ fill: (inout JSONObjectWriter) -> Void) -> String {
            var out = JSONObjectWriter()
            fill(&out)
            return out.closed
        }
        func screen() -> String { JSONObjectWriter.string(Self.screens[random.below(Self.screens.count)]) }
        switch kind.argument {
        case .popup: return (key, popupName(&random))
        case .press:
            let popup = popupName(&random)
            return (key, object { $0.add("popup", json: popup); $0.add("button", "ok") })
        case .state:
            switch random.below(3) {
            case 0:
                let value = Self.screens[random.below(Self.screens.count)]
                return (key, object { $0.add("screen", value) })
            case 1:
                let level = random.below(10)
                return (key, object { $0.add("level", level) })
            default:
                let loggedIn = random.chance(50)
                return (key, object { $0.add("loggedIn", loggedIn) })
            }
        case .flag: return (key, "true")
        case .priority: return (key, Self.priorities[random.below(Self.priorities.count)])
        case .timerTarget: return (key, random.chance(50) ? "true" : popupName(&random))
        case .screen where kind == .push:
            return random.chance(50) ? (key, screen()) : ("pop", "true")
        case .screen: return (key, screen())
        case .popups:
            if random.chance(10) {
                let first = popupName(&random)
                return (key, JSONObjectWriter.array([first, popupName(&random)]))
            }
            return (key, popupName(&random))
        }
    }

    func popup(_ i: Int, _ random: inout SplitMix64) -> String {
        var out = JSONObjectWriter()
        if random.chance(70) { out.add("priority", json: Self.priorities[random.below(Self.priorities.count)]) }
        if random.chance(25) {
            let conditions = ["screen == 'home'", "level >= 3", "loggedIn", "screen != 'settings' && level < 8"]
            out.add("when", conditions[random.below(conditions.count)])
            out.add("untriggered", random.chance(50) ? "await" : "discard")
        }
        if random.chance(40) { out.add("switch", ["await", "discard", "latent"][random.below(3)]) }
        if random.chance(30) {
            out.add("duration", 500 + random.below(4000))
        } else if random.chance(80) {
            let button = random.chance(30) ? "ok" : "close"
            var respond = JSONObjectWriter()
            respond.add("after", 200 + random.below(4800))
            respond.add("button", button)
            out.add("respond", json: respond.closed)
            if button == "ok", i + 1 < popups, random.chance(60) {
                var enqueue = JSONObjectWriter()
                enqueue.add("enqueue", "p\(i + 1 + random.below(popups - i - 1))")
                var then = JSONObjectWriter()
                then.add("ok", json: JSONObjectWriter.array([enqueue.closed]))
                out.add("then", json: then.closed)
            }
        }
        if random.chance(50) { out.add("key", "k\(random.below(5))") }
        if random.chance(20) { out.add("level", "high") }
        if random.chance(30) { out.add("showMs", random.below(400)) }
        if random.chance(30) { out.add("hideMs", random.below(300)) }
        if random.chance(40) { out.add("arrival", "queue") }
        if random.chance(10) { out.add("dropQueued", true) }
        if random.chance(20) { out.add("dedupeKey", "d\(random.below(3))") }
        if random.chance(10) { out.add("delayMs", random.below(2000)) }
        if random.chance(10) { out.add("minMs", random.below(1500)) }
        if random.chance(10) { out.add("ttlMs", random.below(20000)) }
        if random.chance(10) { out.add("maxShows", 1 + random.below(3)) }
        return out.closed
    }
}
