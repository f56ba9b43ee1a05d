/// The optional fields of a popup, in the order design.md lists them, each declared once with its
/// meaning (convention 27): the loader's keys, lint's "ignored by" notes and the docs' tables read
/// this table. Adding a field is its case here plus its reading (`ScenarioLoader+Popups`) and the
/// strategies that model it.
public enum PopupField: String, Sendable, CaseIterable {
    case priority, when, untriggered
    case switchBehavior = "switch"
    case duration, respond, then, key, level, showMs, hideMs
    case arrival, dropQueued, dedupeKey, delayMs, minMs, ttlMs, maxShows

    /// The key in a scenario file.
    public var key: String { rawValue }

    /// Its place in `allCases` (a bit of `PopupFieldSet`, without hashing).
    public var ordinal: Int {
        switch self {
        case .priority: 0
        case .when: 1
        case .untriggered: 2
        case .switchBehavior: 3
        case .duration: 4
        case .respond: 5
        case .then: 6
        case .key: 7
        case .level: 8
        case .showMs: 9
        case .hideMs: 10
        case .arrival: 11
        case .dropQueued: 12
        case .dedupeKey: 13
        case .delayMs: 14
        case .minMs: 15
        case .ttlMs: 16
        case .maxShows: 17
        }
    }

    /// Whether the engine carries it out the same way under every strategy (animation times, the
    /// display timer, the simulated user and its buttons); a strategy models the others or not.
    public var isEngine: Bool {
        switch self {
        case .duration, .respond, .then, .showMs, .hideMs: return true
        default: return false
        }
    }

    /// The shape of its value, for the JSON Schema and the docs.
    public enum ValueType: Sendable, Equatable {
        case priority, condition, duration, respond, buttons, text, boolean
        case choice([String])
        /// An integer no smaller than `minimum`.
        case integer(minimum: Int)
    }

    public var type: ValueType {
        switch self {
        case .priority: return .priority
        case .when: return .condition
        case .untriggered: return .choice(UntriggeredBehavior.allCases.map(\.rawValue))
        case .switchBehavior: return .choice(SwitchBehavior.allCases.map(\.rawValue))
        case .duration: return .duration
        case .respond: return .respond
        case .then: return .buttons
        case .key, .dedupeKey: return .text
        case .level: return .choice(Level.allCases.map(\.rawValue))
        case .showMs, .hideMs, .delayMs, .minMs, .ttlMs: return .integer(minimum: 0)
        case .arrival: return .choice(Arrival.allCases.map(\.rawValue))
        case .dropQueued: return .boolean
        case .maxShows: return .integer(minimum: 1)
        }
    }

    /// Its values, in the words of an "expected …" message.
    public var values: String {
        switch self {
        case .priority: return "an integer, or veryLow, low, normal, high, veryHigh"
        case .when: return "a condition over state"
        case .untriggered: return "await or discard"
        case .switchBehavior: return "await, discard or latent"
        case .duration: return "an integer >= 0 (ms) or \"forever\""
        case .respond: return "{\"after\": ms, \"button\": name}, or a list of them (null: none) show by show"
        case .then: return "an object: button name to a list of actions"
        case .key, .dedupeKey: return "a string"
        case .level: return "normal or high"
        case .showMs, .hideMs, .delayMs, .minMs, .ttlMs: return "an integer >= 0 (ms)"
        case .arrival: return "queue or replace"
        case .dropQueued: return "true or false"
        case .maxShows: return "an integer >= 1"
        }
    }

    /// What it means when it is not set.
    public var unset: String {
        switch self {
        case .priority: return "normal (100)"
        case .when: return "always may show"
        case .untriggered, .switchBehavior: return "await"
        case .duration: return "the strategy's default, else until answered"
        case .respond: return "nobody answers"
        case .then: return "no actions"
        case .key: return "default"
        case .level: return "normal"
        case .showMs, .hideMs: return "the option"
        case .arrival: return "replace"
        case .dropQueued: return "false"
        case .dedupeKey: return "the popup's name"
        case .delayMs, .minMs, .ttlMs: return "none"
        case .maxShows: return "no cap"
        }
    }

    /// What it means, in one line.
    public var meaning: String {
        switch self {
        case .priority: return "a higher one goes first, or preempts (per strategy)"
        case .when: return "it may show only while this holds"
        case .untriggered: return "what a failing condition does when its turn comes"
        case .switchBehavior: return "what it does when a more important popup arrives while it shows"
        case .duration: return "it hides by itself this long after its timer starts"
        case .respond: return "the simulated user presses `button` (default close) `after` ms once shown; a list answers each show in turn, its last answer every show past it"
        case .then: return "actions each button sets off"
        case .key: return "its queue, or its app (per strategy)"
        case .level: return "two-level strategies: high goes first"
        case .showMs: return "its present animation"
        case .hideMs: return "its dismiss animation"
        case .arrival: return "queue waits its turn; replace takes the screen"
        case .dropQueued: return "its arrival empties the queue first"
        case .dedupeKey: return "popups with the same key are duplicates"
        case .delayMs: return "it joins the queue this long after its enqueue"
        case .minMs: return "a hide waits until it was visible this long (swiftmessages: the app's and the user's)"
        case .ttlMs: return "not shown once this long has passed since its enqueue"
        case .maxShows: return "shown at most this many times"
        }
    }

    /// A one-line example.
    public var example: String {
        switch self {
        case .priority: return #""priority": "high""#
        case .when: return #""when": "screen == 'home' && launches >= 3""#
        case .untriggered: return #""untriggered": "discard""#
        case .switchBehavior: return #""switch": "latent""#
        case .duration: return #""duration": 2000"#
        case .respond: return #""respond": {"after": 1500, "button": "ok"}"#
        case .then: return #""then": {"ok": [{"enqueue": "feedback"}]}"#
        case .key: return #""key": "wish-42""#
        case .level: return #""level": "high""#
        case .showMs: return #""showMs": 300"#
        case .hideMs: return #""hideMs": 200"#
        case .arrival: return #""arrival": "queue""#
        case .dropQueued: return #""dropQueued": true"#
        case .dedupeKey: return #""dedupeKey": "sale""#
        case .delayMs: return #""delayMs": 500"#
        case .minMs: return #""minMs": 1000"#
        case .ttlMs: return #""ttlMs": 60000"#
        case .maxShows: return #""maxShows": 3"#
        }
    }

    /// The fields a strategy may or may not model (the others are the engine's).
    public static let strategyFields: [PopupField] = allCases.filter { !$0.isEngine }
}
