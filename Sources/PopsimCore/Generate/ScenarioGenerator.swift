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
            out += "    {\"at\": \(t), " + action(pick(&random, total: total), &random) + (i < events - 1 ? "},\n" : "}\n")
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

    func popupName(_ random: inout SplitMix64) -> String { "\"p\(random.below(popups))\"" }

    /// One action of `kind`, written by the shape of its argument (`ActionKind.argument`).
    func action(_ kind: ActionKind, _ random: inout SplitMix64) -> String {
        let key = "\"\(kind.keyword)\": "
        switch kind.argument {
        case .popup: return key + popupName(&random)
        case .press: return key + "{\"popup\": \(popupName(&random)), \"button\": \"ok\"}"
        case .state:
            switch random.below(3) {
            case 0: return key + "{\"screen\": \"\(Self.screens[random.below(Self.screens.count)])\"}"
            case 1: return key + "{\"level\": \(random.below(10))}"
            default: return key + "{\"loggedIn\": \(random.chance(50))}"
            }
        case .flag: return key + "true"
        case .timerTarget: return key + (random.chance(50) ? "true" : popupName(&random))
        case .screen where kind == .push:
            return random.chance(50) ? key + "\"\(Self.screens[random.below(Self.screens.count)])\"" : "\"pop\": true"
        case .screen: return key + "\"\(Self.screens[random.below(Self.screens.count)])\""
        case .popups:
            return random.chance(10)
                ? key + "[\(popupName(&random)), \(popupName(&random))]"
                : key + popupName(&random)
        }
    }

    func popup(_ i: Int, _ random: inout SplitMix64) -> String {
        var fields: [String] = []
        let priorities = ["1", "50", "100", "1000", "\"high\"", "\"low\""]
        if random.chance(70) { fields.append("\"priority\": \(priorities[random.below(priorities.count)])") }
        if random.chance(25) {
            let conditions = ["screen == 'home'", "level >= 3", "loggedIn", "screen != 'settings' && level < 8"]
            fields.append("\"when\": \"\(conditions[random.below(conditions.count)])\"")
            fields.append("\"untriggered\": \"\(random.chance(50) ? "await" : "discard")\"")
        }
        if random.chance(40) { fields.append("\"switch\": \"\(["await", "discard", "latent"][random.below(3)])\"") }
        if random.chance(30) {
            fields.append("\"duration\": \(500 + random.below(4000))")
        } else if random.chance(80) {
            let button = random.chance(30) ? "ok" : "close"
            fields.append("\"respond\": {\"after\": \(200 + random.below(4800)), \"button\": \"\(button)\"}")
            if button == "ok", i + 1 < popups, random.chance(60) {
                let next = i + 1 + random.below(popups - i - 1)
                fields.append("\"then\": {\"ok\": [{\"enqueue\": \"p\(next)\"}]}")
            }
        }
        if random.chance(50) { fields.append("\"key\": \"k\(random.below(5))\"") }
        if random.chance(20) { fields.append("\"level\": \"high\"") }
        if random.chance(30) { fields.append("\"showMs\": \(random.below(400))") }
        if random.chance(30) { fields.append("\"hideMs\": \(random.below(300))") }
        if random.chance(40) { fields.append("\"arrival\": \"queue\"") }
        if random.chance(10) { fields.append("\"dropQueued\": true") }
        if random.chance(20) { fields.append("\"dedupeKey\": \"d\(random.below(3))\"") }
        if random.chance(10) { fields.append("\"delayMs\": \(random.below(2000))") }
        if random.chance(10) { fields.append("\"minMs\": \(random.below(1500))") }
        if random.chance(10) { fields.append("\"ttlMs\": \(random.below(20000))") }
        if random.chance(10) { fields.append("\"maxShows\": \(1 + random.below(3))") }
        return "{" + fields.joined(separator: ", ") + "}"
    }
}
