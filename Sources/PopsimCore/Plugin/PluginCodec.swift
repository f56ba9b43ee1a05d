/// The lines of the plug-in protocol (docs/plugin-protocol.md): the run's start and each
/// happening as one JSON object, and a reply read back into decisions.
///
/// Why hand-written bytes rather than a JSON tree: this runs once per happening, and popsim's
/// share of a round trip must stay under 2 µs (Benchmarks/run). Popup names are escaped once.
package struct PluginCodec {
    /// Each popup's name as a JSON string literal.
    private var names: [[UInt8]]
    private var ids: [String: PopupID]
    /// Per instance the engine made (`"instances": "per-request"`), its file's popup's name
    /// literal, by the instance's index past the file's popups.
    private var instanceOf: [[UInt8]] = []
    private let filePopups: Int

    package init(_ scenario: Scenario) {
        names = scenario.popups.map { Array(JSONValue.literal($0.name).utf8) }
        var ids: [String: PopupID] = [:]
        for (i, p) in scenario.popups.enumerated() { ids[p.name] = PopupID(i) }
        self.ids = ids
        filePopups = scenario.popups.count
    }

    /// The engine made instance `name` of the file's popup `base`: happening lines name it, and
    /// its `enqueued` line says whose instance it is (`"instanceOf": "Saved"`).
    package mutating func addInstance(_ name: String, of base: PopupID) {
        ids[name] = PopupID(names.count)
        names.append(Array(JSONValue.literal(name).utf8))
        instanceOf.append(names[Int(base.index)])
    }

    // MARK: popsim → plug-in

    /// `{"start": {...}}`: the scenario's name, the options, every popup with its fields, the state
    /// and which conditions hold.
    func start(_ world: World) -> [UInt8] {
        var out = #"{"start": {"scenario": "# + JSONValue.literal(world.scenario.name) + #", "options": "# + world.options.json
        out += #", "popups": ["# + world.scenario.popups.indices.map { popup(PopupID($0), world) }.joined(separator: ", ") + "]"
        out += state(world) + "}}"
        return Array(out.utf8)
    }

    private func popup(_ p: PopupID, _ world: World) -> String {
        let popup = world.popup(p), traits = world.traits(p)
        var out = JSONObjectWriter()
        out.add("name", popup.name)
        out.add("duration", traits.duration)
        out.add("showMs", traits.showMs)
        out.add("hideMs", traits.hideMs)
        if let priority = popup.priority { out.add("priority", priority) }
        if let when = popup.whenText { out.add("when", when) }
        if popup.fieldsSet.contains(.untriggered) { out.add("untriggered", popup.untriggered.rawValue) }
        if popup.fieldsSet.contains(.switchBehavior) { out.add("switch", popup.switchBehavior.rawValue) }
        if let key = popup.key { out.add("key", key) }
        if let level = popup.level { out.add("level", level.rawValue) }
        if let arrival = popup.arrival { out.add("arrival", arrival.rawValue) }
        if popup.dropQueued { out.add("dropQueued", true) }
        if let dedupeKey = popup.dedupeKey { out.add("dedupeKey", dedupeKey) }
        if let delayMs = popup.delayMs { out.add("delayMs", delayMs) }
        if let minMs = popup.minMs { out.add("minMs", minMs) }
        if let ttlMs = popup.ttlMs { out.add("ttlMs", ttlMs) }
        if let maxShows = popup.maxShows { out.add("maxShows", maxShows) }
        return out.closed
    }

    /// `, "state": {...}, "holds": [...]`: every state variable, and the popups with a `when`
    /// that holds now.
    private func state(_ world: World) -> String {
        let schema = world.scenario.state
        var values = JSONObjectWriter()
        for i in schema.names.indices {
            switch world.state[i] {
            case .string(let s): values.add(schema.names[i], s)
            case .integer(let n): values.add(schema.names[i], n)
            case .boolean(let b): values.add(schema.names[i], b)
            }
        }
        let holds = world.scenario.popups.indices.filter { i in
            world.traits[i].hasCondition && world.conditionHolds(PopupID(i))
        }.map { String(decoding: names[$0], as: UTF8.self) }
        return #", "state": "# + values.closed + #", "holds": "# + JSONObjectWriter.array(holds)
    }

    /// One happening: `{"t": 1200, "happening": "enqueued", "popup": "A", "seq": 7}` and what goes
    /// with it; `seq` numbers the happening lines from 1, for a reply to echo.
    func happening(_ h: Happening, _ world: World, seq: Int, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: Key.t)
        out.append(contentsOf: String(world.now).utf8)
        out.append(contentsOf: Key.happening)
        out.append(0x22)
        out.append(contentsOf: Self.word(h).utf8)  // a fixed word: nothing to escape
        out.append(0x22)
        switch h {
        case .enqueued(let p):
            popup(p, &out)
            if Int(p.index) >= filePopups {
                out.append(contentsOf: Key.instanceOf)
                out.append(contentsOf: instanceOf[Int(p.index) - filePopups])
            }
        case .shown(let p), .gone(let p), .remove(let p):
            popup(p, &out)
        case .dismissing(let p, let reason):
            popup(p, &out)
            out.append(contentsOf: Key.reason)
            out.append(contentsOf: Key.reasons[reason.ordinal])
        case .pauseTimers(let target), .resumeTimers(let target):
            if case .popup(let p) = target { popup(p, &out) } else { out.append(contentsOf: Key.allTrue) }
        case .timer(let token):
            out.append(contentsOf: Key.token)
            out.append(contentsOf: String(token).utf8)
        case .stateChanged:
            out.append(contentsOf: state(world).utf8)
        case .clearUpTo(let priority):
            out.append(contentsOf: Key.priority)
            out.append(contentsOf: String(priority).utf8)
        case .idle, .trigger, .suspend, .resume, .clear, .clearQueue, .clearScreen, .finished:
            break
        }
        out.append(contentsOf: Key.seq)
        out.append(contentsOf: String(seq).utf8)
        out.append(0x7D)
    }

    /// The happening line's member openings and reasons, made once by `JSONObjectWriter`'s rules.
    enum Key {
        static let t = JSONObjectWriter.opening("t", first: true)
        static let happening = JSONObjectWriter.opening("happening")
        static let popup = JSONObjectWriter.opening("popup")
        static let instanceOf = JSONObjectWriter.opening("instanceOf")
        static let reason = JSONObjectWriter.opening("reason")
        static let allTrue = JSONObjectWriter.opening("all") + Array("true".utf8)
        static let token = JSONObjectWriter.opening("token")
        static let priority = JSONObjectWriter.opening("priority")
        static let seq = JSONObjectWriter.opening("seq")
        static let reasons = Reason.allCases.map { JSONObjectWriter.bytes($0.rawValue) }
    }

    private func popup(_ p: PopupID, _ out: inout [UInt8]) {
        out.append(contentsOf: Key.popup)
        out.append(contentsOf: names[Int(p.index)])
    }

    static func word(_ h: Happening) -> String {
        switch h {
        case .enqueued: return "enqueued"
        case .dismissing: return "dismissing"
        case .shown: return "shown"
        case .gone: return "gone"
        case .stateChanged: return "stateChanged"
        case .idle: return "idle"
        case .trigger: return "trigger"
        case .suspend: return "suspend"
        case .resume: return "resume"
        case .remove: return "remove"
        case .clear: return "clear"
        case .clearQueue: return "clearQueue"
        case .clearScreen: return "clearScreen"
        case .clearUpTo: return "clearUpTo"
        case .pauseTimers: return "pauseTimers"
        case .resumeTimers: return "resumeTimers"
        case .timer: return "timer"
        case .finished: return "finished"
        }
    }

    // MARK: plug-in → popsim

    /// The members of a line that must be one JSON object (`what`: a reply or a handshake).
    static func members(_ line: [UInt8], _ what: PluginProblem.Line) throws(PluginFailure) -> [JSONValue.Member] {
        let root: JSONValue
        do {
            root = try JSONReader.parse(line)
        } catch {
            throw PluginFailure(.notJSON(what, detail: error.message))
        }
        guard case .object(let members) = root.kind else { throw PluginFailure(.notAnObject(what)) }
        return members
    }

    /// A reply: its decisions, in order, and (for `finished`) the popups still waiting.
    package struct Reply {
        var decisions: [Decision] = []
        var pending: [PopupID]?
        /// The `seq` of the line it answers, when the plug-in echoes it.
        var seq: Int?
    }

    package func reply(_ line: [UInt8]) throws(PluginFailure) -> Reply {
        // Most replies decide nothing: no tree for them.
        if let empty = Self.emptyReply(line) { return empty }
        let members = try Self.members(line, .reply)
        var reply = Reply()
        for m in members {
            switch (m.key, m.value.kind) {
            case ("decisions", .array(let items)):
                for item in items { reply.decisions.append(try decision(item)) }
            case ("pending", .array(let items)):
                var list: [PopupID] = []
                for item in items { list.append(try popupID(item, "pending")) }
                reply.pending = list
            case ("seq", .number(let n)) where n.integer != nil:
                reply.seq = n.integer
            case ("decisions", _), ("pending", _), ("seq", _):
                throw PluginFailure(m.key == "seq" ? .replyFieldNotInteger(m.key) : .replyFieldNotArray(m.key))
            default:
                throw PluginFailure(.unknownReplyKey(m.key))
            }
        }
        return reply
    }

    private func decision(_ v: JSONValue) throws(PluginFailure) -> Decision {
        guard case .object(let members) = v.kind, let first = members.first else {
            throw PluginFailure(.decisionShape)
        }
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        guard let extra = Self.verbs[first.key] else {
            throw PluginFailure(.unknownDecision(first.key, known: ["show", "hide", "restartTimer", "stopTimer", "drop", "requeue", "warn", "startTimer"]))
        }
        for m in members.dropFirst() where !extra.contains(m.key) {
            throw PluginFailure(.unknownDecisionKey(verb: first.key, key: m.key))
        }
        let verb = first.key
        switch verb {
        case "show":
            return .show(try popupID(first.value, verb), ms: try integer(value("ms"), "ms"), reason: try optionalReason(value("reason"), verb))
        case "hide":
            return .hide(try popupID(first.value, verb), try reason(value("reason"), verb), ms: try integer(value("ms"), "ms"))
        case "restartTimer":
            return .restartTimer(try popupID(first.value, verb), ms: try integer(value("ms"), "ms"))
        case "stopTimer":
            return .stopTimer(try popupID(first.value, verb))
        case "drop":
            return .drop(try popupID(first.value, verb), try reason(value("reason"), verb))
        case "requeue":
            return .requeue(try popupID(first.value, verb), try reason(value("reason"), verb))
        case "warn":
            if case .null = first.value.kind { return .warn(nil, try reason(value("reason"), verb)) }
            return .warn(try popupID(first.value, verb), try reason(value("reason"), verb))
        default:
            guard let after = try integer(first.value, "startTimer"), let token = try integer(value("token"), "token") else {
                throw PluginFailure(.startTimerIncomplete)
            }
            return .startTimer(after: after, token: token)
        }
    }

    /// A reply that decides nothing — `{}`, `{"decisions": []}`, either with a `"seq": N` last —
    /// read without a tree; nil for any other reply (the tree reads it).
    static func emptyReply(_ line: [UInt8]) -> Reply? {
        var compact: [UInt8] = []
        compact.reserveCapacity(40)
        for byte in line where byte != 0x20 && byte != 0x09 && byte != 0x0D {
            compact.append(byte)
            if compact.count > 40 { return nil }
        }
        if compact == emptyObject || compact == noDecisions { return Reply() }
        for head in [seqOnly, decisionsThenSeq] where compact.count > head.count + 1 && compact.starts(with: head) && compact.last == 0x7D {
            let digits = compact[head.count ..< compact.count - 1]
            guard digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Reply(seq: digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        return nil
    }

    static let emptyObject = Array("{}".utf8)
    static let noDecisions = Array(#"{"decisions":[]}"#.utf8)
    static let seqOnly = Array(#"{"seq":"#.utf8)
    static let decisionsThenSeq = Array(#"{"decisions":[],"seq":"#.utf8)

    /// Each decision's verb and the keys it may carry besides.
    static let verbs: [String: [String]] = ["show": ["ms", "reason"], "hide": ["reason", "ms"], "restartTimer": ["ms"], "stopTimer": [],
                                            "drop": ["reason"], "requeue": ["reason"], "warn": ["reason"], "startTimer": ["token"]]

    private func popupID(_ v: JSONValue, _ verb: String) throws(PluginFailure) -> PopupID {
        guard case .string(let name) = v.kind else { throw PluginFailure(.notAPopupName(verb: verb, got: v.errorDescription)) }
        guard let id = ids[name] else { throw PluginFailure(.noSuchPopup(verb: verb, name: name)) }
        return id
    }

    private func integer(_ v: JSONValue?, _ key: String) throws(PluginFailure) -> Int? {
        guard let v else { return nil }
        guard case .number(let n) = v.kind, let i = n.integer, i >= 0 else {
            throw PluginFailure(.notANonNegativeInteger(key: key, got: v.errorDescription))
        }
        return i
    }

    /// The decision's `reason`, which it must have.
    private func reason(_ v: JSONValue?, _ verb: String) throws(PluginFailure) -> Reason {
        guard let v else { throw PluginFailure(.missingReason(verb: verb)) }
        guard case .string(let word) = v.kind, let reason = Reason(rawValue: word) else {
            throw PluginFailure(.unknownReason(verb: verb, got: v.errorDescription))
        }
        return reason
    }

    /// The decision's `reason`, which it may leave out.
    private func optionalReason(_ v: JSONValue?, _ verb: String) throws(PluginFailure) -> Reason? {
        guard let v else { return nil }
        return try reason(v, verb)
    }
}
