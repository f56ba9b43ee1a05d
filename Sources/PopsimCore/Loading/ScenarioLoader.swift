/// Turns the bytes of a scenario file into a validated `Scenario`, or every error it has.
///
/// Contract: the whole file is checked and every problem reported, sorted by place in the file;
/// a JSON syntax error stops at the first one (nothing after it can be trusted). Unknown keys,
/// duplicate keys, wrong types, negative or non-integer times, unknown popup ids, strategies,
/// options and state names, and ill-typed conditions are all errors (design.md §2–3).
public struct ScenarioLoader {
    public static let topLevelKeys = ["popsim", "name", "description", "strategy", "policy", "options", "state",
                                      "popups", "events", "until", "expect"]
    public static let popupKeys = PopupField.allCases.map(\.rawValue)
    public static let actionKeys = ActionKind.allCases.map(\.keyword)
    /// FGPopupScheduler's named priorities, accepted wherever a priority is.
    public static let namedPriorities: [(String, Int)] = [("veryLow", 1), ("low", 50), ("normal", 100),
                                                          ("high", 1000), ("veryHigh", 2000)]
    static let nameRule = "use letters, digits, '_', '-', '.' or ':', starting with a letter, digit or '_'"
    static let stateNameRule = "use letters, digits and '_', starting with a letter or '_'"

    let file: String
    /// The strategies a file may name, with their options (the registry, passed in by `Pipeline`).
    let catalog: StrategyCatalog
    var errors: [LoadError] = []
    var scenario: Scenario
    /// Action keywords looked up by bytes on the streaming path.
    let keywords = ActionKeywords()
    /// Declared popup names to ids, looked up by bytes (never iterated, so its order cannot
    /// leak); `popupID(named:)` looks a String up.
    var popupTable = NameTable()
    /// `state` and `popups` were loaded ahead of a streamed `events` array.
    var prepared = false
    /// `events` was streamed: the root holds a placeholder for it.
    var streamed = false
    /// An `events` array at least this long (bytes) is read on two cores (ScenarioLoader+ReadAhead.swift).
    var readAhead = ReadAheadSettings()
    /// The file's bytes while it loads, to point into escaped strings (ScenarioLoader+Columns.swift).
    var source: UnsafeBufferPointer<UInt8>?
    /// Where each line starts, computed at the first message that needs it.
    var lineStarts: [Int]?
    /// `when` texts parsed on the popups' fast path (one loader, one thread: popups are not read ahead).
    let conditions = ConditionCache()
    /// Errors found beyond `maxErrors`.
    var suppressed = 0
    /// "did you mean" state (ScenarioLoader+Hints.swift).
    var popupHints: SuggestionIndex?
    var stateHints: SuggestionIndex?
    var hintBudget = SuggestionIndex.defaultBudget

    /// Loads `bytes` read from `file` (the path as the user wrote it, used in every message);
    /// `catalog` says which strategies and options a file may name.
    public static func load(_ bytes: [UInt8], file: String, catalog: StrategyCatalog) -> Result<Scenario, LoadErrors> {
        bytes.withUnsafeBufferPointer { load($0, file: file, catalog: catalog) }
    }

    /// As `load(_:file:catalog:)`, from bytes the caller owns (a mapped file); the scenario keeps
    /// no reference to them.
    public static func load(_ bytes: UnsafeBufferPointer<UInt8>, file: String, catalog: StrategyCatalog) -> Result<Scenario, LoadErrors> {
        if let result = loadStreaming(bytes, file: file, catalog: catalog) { return result }
        return loadTree(bytes, file: file, catalog: catalog)
    }

    /// The reference path: the whole file as a JSON tree, then the model.
    static func loadTree(_ bytes: [UInt8], file: String, catalog: StrategyCatalog) -> Result<Scenario, LoadErrors> {
        bytes.withUnsafeBufferPointer { loadTree($0, file: file, catalog: catalog) }
    }

    static func loadTree(_ buffer: UnsafeBufferPointer<UInt8>, file: String, catalog: StrategyCatalog) -> Result<Scenario, LoadErrors> {
        let root: JSONValue
        do {
            var cursor = JSONCursor(buffer)
            root = try cursor.document()
        } catch {
            return .failure(LoadErrors([LoadError(file: file, location: error.location, path: .root, problem: .syntax(error.message))]))
        }
        var loader = ScenarioLoader(file: file, catalog: catalog)
        loader.source = buffer
        loader.loadRoot(root)
        loader.source = nil
        return loader.finish()
    }

    /// The file's JSON tree, or its first syntax error as the file's one error.
    static func parseRoot(_ bytes: [UInt8], file: String) -> Result<JSONValue, LoadErrors> {
        do {
            return .success(try JSONReader.parse(bytes))
        } catch {
            return .failure(LoadErrors([LoadError(file: file, location: error.location, path: .root, problem: .syntax(error.message))]))
        }
    }

    /// The scenario, or every error sorted by place in the file.
    func finish() -> Result<Scenario, LoadErrors> {
        if errors.isEmpty { return .success(scenario) }
        let sorted = errors.enumerated().sorted { a, b in
            let (la, lb) = (a.element.location ?? SourceLocation(line: 0, column: 0),
                            b.element.location ?? SourceLocation(line: 0, column: 0))
            return la != lb ? la < lb : a.offset < b.offset
        }
        var list = sorted.map(\.element)
        if suppressed > 0 {
            list.append(LoadError(file: file, location: nil, path: .root, problem: .moreErrors(suppressed)))
        }
        return .failure(LoadErrors(list))
    }

    init(file: String, catalog: StrategyCatalog) {
        self.file = file
        self.catalog = catalog
        scenario = Scenario(file: file, name: Self.defaultName(file), description: nil, strategy: nil,
                            options: [], state: StateSchema(), popups: [], events: [], until: nil)
    }

    /// The file name without its folder and `.json` (`Scenarios/a.json` → `a`): a scenario's
    /// default name, and the stem of the files written beside it.
    package static func defaultName(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    /// At most this many errors are kept per file; the rest are counted.
    static let maxErrors = 1_000

    mutating func report(_ problem: LoadProblem, at location: SourceLocation?, _ path: JSONPath) {
        guard errors.count < Self.maxErrors else {
            suppressed += 1
            return
        }
        errors.append(LoadError(file: file, location: location, path: path, problem: problem))
    }

    mutating func loadRoot(_ root: JSONValue) {
        guard let fields = fields(of: root, .root, allowed: Self.topLevelKeys) else { return }
        if let v = fields["popsim"] {
            loadVersion(v)
        } else {
            report(.missingKey("popsim", what: "the format version, 1"), at: root.location, .root)
        }
        if let v = fields["name"], let s = string(v, .root.appending("name")) { scenario.name = s }
        if let v = fields["description"], let s = string(v, .root.appending("description")) {
            scenario.description = s
        }
        if let v = fields["strategy"] { loadStrategy(v) }
        if let v = fields["policy"] { loadPolicyFile(v, strategyGiven: fields["strategy"] != nil) }
        if let v = fields["state"], !prepared { loadState(v) }
        if let v = fields["popups"], !prepared { loadPopups(v) }
        if let v = fields["options"] { loadOptions(v) }
        if let v = fields["events"], !streamed { loadEvents(v) }
        if let v = fields["until"] { scenario.until = integer(v, .root.appending("until"), minimum: 0) }
        if let v = fields["expect"] { loadExpectations(v) }
        checkButtons()
    }

    /// A `then` key that nothing presses and that is one or two edits from a button that is
    /// pressed is a typo: an error with the suggestion. Other unpressed buttons are alternative
    /// branches the script does not take (lint notes them).
    mutating func checkButtons() {
        for unpressed in scenario.unpressedButtons() {
            guard let suggestion = Suggestion.closest(unpressed.button, among: unpressed.pressed, atLeast: 2) else { continue }
            let popup = scenario[unpressed.popup].name
            let path = JSONPath.root.appending("popups").appending(popup).appending("then").appending(unpressed.button)
            report(.unknownButton(unpressed.button, popup: popup, pressed: unpressed.pressed, suggestion: suggestion),
                   at: unpressed.location, path)
        }
    }

    mutating func loadVersion(_ v: JSONValue) {
        let path = JSONPath.root.appending("popsim")
        guard case .number(let n) = v.kind, let version = n.integer else {
            report(.expected("the format version 1", got: v.errorDescription), at: v.location, path)
            return
        }
        if version > 1 {
            report(.unsupportedVersion(version), at: v.location, path)
        } else if version != 1 {
            report(.expected("the format version 1", got: v.errorDescription), at: v.location, path)
        }
    }

    mutating func loadStrategy(_ v: JSONValue) {
        let path = JSONPath.root.appending("strategy")
        guard let name = string(v, path) else { return }
        guard catalog.options(of: name) != nil else {
            report(.unknownStrategy(name, known: catalog.names, suggestion: hint(name, among: catalog.names)),
                   at: v.location, path)
            return
        }
        scenario.strategy = name
    }

    /// `"policy": "rules.json"`: the `policy` strategy's rules from a file beside the scenario;
    /// without a `strategy`, the scenario runs `policy`.
    mutating func loadPolicyFile(_ v: JSONValue, strategyGiven: Bool) {
        guard let file = string(v, .root.appending("policy"), nonEmpty: true) else { return }
        scenario.policyFile = file
        if !strategyGiven { scenario.strategy = Self.policyStrategy }
    }

    /// Options belong to the file's strategy; without one, only the options every strategy has.
    /// Option keys starting with it are comments.
    public static let commentPrefix = "//"

    mutating func loadOptions(_ v: JSONValue, at path: JSONPath = JSONPath.root.appending("options"), skipping: String? = nil) {
        let specs = scenario.strategy.flatMap(catalog.options(of:)) ?? [.showMs(default: 0), .hideMs(default: 0), .navMs]
        let owner = scenario.strategy ?? "a scenario without \"strategy\""
        // A key starting with `//` is a comment (what `fit --output` writes above each option).
        for member in members(of: v, path) where member.key != skipping && !member.key.hasPrefix(Self.commentPrefix) {
            let optionPath = path.appending(member.key)
            guard let spec = specs.first(where: { $0.name == member.key }) else {
                let names = specs.map(\.name)
                report(.unknownOption(member.key, strategy: owner, known: names,
                                      suggestion: hint(member.key, among: names)),
                       at: member.keyLocation, optionPath)
                continue
            }
            if let value = optionValue(member.value, spec, optionPath) {
                scenario.options.append(OptionSetting(name: spec.name, value: value))
            }
        }
    }

    mutating func optionValue(_ v: JSONValue, _ spec: OptionSpec, _ path: JSONPath) -> OptionValue? {
        switch spec.kind {
        case .integer(let minimum):
            return integer(v, path, minimum: minimum).map(OptionValue.integer)
        case .choice(let words):
            if case .string(let text) = v.kind, !words.contains(text), let note = spec.rejectionNote(text) {
                report(.expectedOneOf(words, got: v.errorDescription, suggestion: nil, note: note), at: v.location, path)
                return nil
            }
            return choice(v, path, words).map(OptionValue.text)
        case .caps:
            guard case .string(let text) = v.kind, let value = spec.validate(.text(text)) else {
                report(.expected(spec.allowedDescription, got: v.errorDescription), at: v.location, path)
                return nil
            }
            return value
        }
    }

    mutating func loadState(_ v: JSONValue) {
        let path = JSONPath.root.appending("state")
        for member in members(of: v, path) {
            let varPath = path.appending(member.key)
            guard Self.isStateName(member.key) else {
                report(.badName(member.key, rule: Self.stateNameRule), at: member.keyLocation, varPath)
                continue
            }
            guard let value = stateValue(member.value, varPath) else { continue }
            scenario.state.names.append(member.key)
            scenario.state.initial.append(value)
        }
    }

    static func isStateName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39),
              name != "true", name != "false" else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
        }
    }

    static func isPopupName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "."),
              first != UInt8(ascii: ":") else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
        }
    }
}
