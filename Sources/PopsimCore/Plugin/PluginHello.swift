/// A plug-in's handshake, its first line: the protocol version and what popsim needs to know of
/// it before any run — its name, options, the popup fields and script actions it models, and the
/// three traits the engine reads (docs/plugin-protocol.md, "Handshake").
///
/// Contract: `parse` accepts exactly the documented keys with their types; anything else is a
/// `PluginFailure` naming the key. The options every strategy has (`showMs`, `hideMs`, `navMs`)
/// are added, at 0, when the plug-in does not declare them.
public struct PluginHello: Sendable {
    public static let protocolVersion = 1
    static let keys = ["popsimPlugin", "name", "summary", "options", "fields", "actions", "buttonActions", "timerAnchor", "handoff", "skip", "persistent", "instances"]
    /// The happenings a plug-in may ask not to hear (each would be answered `{}`).
    public static let skippable = ["idle", "stateChanged", "trigger", "suspend", "resume", "shown", "dismissing", "gone",
                                   "remove", "clear", "clearQueue", "clearScreen", "clearUpTo", "pauseTimers", "resumeTimers"]

    public var name: String
    public var summary: String
    public var options: [OptionSpec]
    public var fields: [PopupField]
    public var actions: [ActionKind]
    public var buttonActions: ButtonActionTiming
    public var timerAnchor: TimerAnchor
    public var crossFades: Bool
    /// Happenings popsim does not send it (`skip`): fewer round trips for a plug-in that ignores them.
    public var skip: Set<String> = []
    /// It serves many runs, one after another (`"persistent": true`): after its reply to
    /// `finished`, the next line may be another `start`, which begins a new run from nothing.
    public var persistent = false
    /// `"instances": "per-request"`: a request of a popup on screen or waiting is a new instance
    /// (`InstancePolicy`), announced on its `enqueued` line.
    public var instances = InstancePolicy.merge

    public static func parse(_ line: [UInt8]) throws(PluginFailure) -> PluginHello {
        let members = try PluginCodec.members(line, .handshake)
        for m in members where !keys.contains(m.key) { throw PluginFailure(.unknownHandshakeKey(m.key)) }
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        guard case .number(let n)? = value("popsimPlugin")?.kind, let version = n.integer else {
            throw PluginFailure(.noProtocolVersion(protocolVersion))
        }
        guard version == protocolVersion else {
            throw PluginFailure(.otherProtocolVersion(version, speaks: protocolVersion))
        }
        var hello = PluginHello(name: try string(value("name"), "name"), summary: try string(value("summary"), "summary", or: ""),
                                options: try Self.options(value("options")), fields: [], actions: [], buttonActions: .atResponse,
                                timerAnchor: .shown, crossFades: false)
        hello.fields = try words(value("fields"), "fields", PopupField.strategyFields.map(\.key)).compactMap { PopupField(rawValue: $0) }
        let actionWords = ActionKind.allCases.filter(\.reachesStrategy).map(\.keyword)
        hello.actions = try words(value("actions"), "actions", actionWords).compactMap { w in ActionKind.allCases.first { $0.keyword == w } }
        hello.buttonActions = try string(value("buttonActions"), "buttonActions", or: "at-response", among: ["at-response", "at-gone"]) == "at-gone"
            ? .atGone : .atResponse
        hello.timerAnchor = try string(value("timerAnchor"), "timerAnchor", or: "shown", among: ["show", "shown"]) == "show" ? .show : .shown
        hello.crossFades = try string(value("handoff"), "handoff", or: "after-gone", among: ["after-gone", "cross-fade"]) == "cross-fade"
        hello.skip = Set(try words(value("skip"), "skip", skippable))
        let policies = InstancePolicy.allCases.map(\.rawValue)
        hello.instances = InstancePolicy(rawValue: try string(value("instances"), "instances", or: "merge", among: policies)) ?? .merge
        if let v = value("persistent") {
            guard case .bool(let b) = v.kind else { throw PluginFailure(.handshakeField("persistent", expected: .bool, got: v.errorDescription)) }
            hello.persistent = b
        }
        return hello
    }

    private static func string(_ v: JSONValue?, _ key: String, or fallback: String? = nil, among allowed: [String]? = nil) throws(PluginFailure) -> String {
        guard let v else {
            if let fallback { return fallback }
            throw PluginFailure(.handshakeLacks(key))
        }
        guard case .string(let s) = v.kind, !s.isEmpty else { throw PluginFailure(.handshakeField(key, expected: .string, got: v.errorDescription)) }
        if let allowed, !allowed.contains(s) {
            throw PluginFailure(.handshakeField(key, expected: .oneOf(allowed), got: JSONValue.quoted(s)))
        }
        return s
    }

    private static func words(_ v: JSONValue?, _ key: String, _ allowed: [String]) throws(PluginFailure) -> [String] {
        guard let v else { return [] }
        guard case .array(let items) = v.kind else { throw PluginFailure(.handshakeField(key, expected: .array, got: v.errorDescription)) }
        var out: [String] = []
        for item in items {
            guard case .string(let s) = item.kind, allowed.contains(s) else {
                throw PluginFailure(.handshakeField(key, expected: .someOf(allowed), got: item.errorDescription))
            }
            out.append(s)
        }
        return out
    }

    private static func options(_ v: JSONValue?) throws(PluginFailure) -> [OptionSpec] {
        var out: [OptionSpec] = []
        if let v {
            guard case .array(let items) = v.kind else { throw PluginFailure(.handshakeField("options", expected: .array, got: v.errorDescription)) }
            for item in items {
                let option = try option(item)
                // A second declaration would be sent twice (duplicate JSON keys), and `--option`
                // would reach only one of them.
                if out.contains(where: { $0.name == option.name }) {
                    throw PluginFailure(.optionDeclaredTwice(option.name))
                }
                out.append(option)
            }
        }
        for shared in [OptionSpec.showMs(default: 0), .hideMs(default: 0), .navMs] where !out.contains(where: { $0.name == shared.name }) {
            out.append(shared)
        }
        return out
    }

    private static func option(_ v: JSONValue) throws(PluginFailure) -> OptionSpec {
        guard case .object(let members) = v.kind else { throw PluginFailure(.optionNotAnObject(got: v.errorDescription)) }
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        for m in members where !["name", "summary", "default", "minimum", "choices"].contains(m.key) {
            throw PluginFailure(.unknownOptionKey(m.key))
        }
        let name = try string(value("name"), "options.name")
        let summary = try string(value("summary"), "options.summary", or: "")
        if let choices = value("choices") {
            let words = try Self.words(choices, "options.\(name).choices", anyWord(choices))
            guard case .string(let d)? = value("default")?.kind, words.contains(d) else {
                throw PluginFailure(.optionRule(name, .defaultNotAChoice))
            }
            return OptionSpec(name: name, summary: summary, kind: .choice(words), defaultValue: .text(d))
        }
        var minimum = 0
        if let m = value("minimum") {
            guard case .number(let n) = m.kind, let i = n.integer else { throw PluginFailure(.optionRule(name, .minimumNotAnInteger)) }
            minimum = i
        }
        guard case .number(let n)? = value("default")?.kind, let d = n.integer, d >= minimum else {
            throw PluginFailure(.optionRule(name, .defaultBelowMinimum(minimum)))
        }
        if EngineOption.shared.contains(where: { $0.rawValue == name }) && minimum < 0 {
            throw PluginFailure(.optionRule(name, .negativeAnimation))
        }
        return OptionSpec(name: name, summary: summary, kind: .integer(minimum: minimum), defaultValue: .integer(d))
    }

    private static func anyWord(_ v: JSONValue) -> [String] {
        guard case .array(let items) = v.kind else { return [] }
        return items.compactMap { if case .string(let s) = $0.kind, !s.isEmpty { return s } else { return nil } }
    }
}
