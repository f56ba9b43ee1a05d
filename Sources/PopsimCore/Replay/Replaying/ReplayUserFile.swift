/// One user of a trace as a plain scenario file: the catalog with the user's actions as its
/// events and production's answers as `respond`, naming the strategy a property fails under —
/// a regression test that `check` runs as it is (`replay --save`).
public enum ReplayUserFile {
    static let at = SourceLocation(line: 0, column: 0)

    /// The text of the file, from the catalog's JSON tree `root` and the scenario the user ran
    /// (`scenario`: its events and its popups' `respond`); `options`, if given, replace the
    /// catalog's (a policy's rules written in, so that the file needs no `policy` key);
    /// `expect`, if given, replaces the catalog's.
    public static func text(_ root: JSONValue, scenario: Scenario, strategy: String, options: [OptionSetting]?, note: String,
                            expect: [String]? = nil) -> String {
        guard case .object(var members) = root.kind else { return JSONWriter.write(root) + "\n" }
        if let expect {
            let value = JSONValue(.array(expect.map(string)), at: at)
            if let i = members.firstIndex(where: { $0.key == "expect" }) { members[i].value = value } else { members.append(member("expect", value)) }
        }
        CounterexampleFile.set(&members, "strategy", string(strategy))
        CounterexampleFile.set(&members, "name", string(scenario.name + " — " + note))
        members.removeAll { $0.key == "policy" || $0.key == "events" || $0.key == "until" }
        if let options {
            members.removeAll { $0.key == "options" }
            if !options.isEmpty {
                members.append(member("options", object(options.map { o in
                    switch o.value {
                    case .integer(let n): return (o.name, integer(n))
                    case .text(let t): return (o.name, string(t))
                    }
                })))
            }
        }
        if let i = members.firstIndex(where: { $0.key == "popups" }), case .object(var popups) = members[i].value.kind {
            for popup in scenario.popups {
                guard let value = answers(popup), let j = popups.firstIndex(where: { $0.key == popup.name }),
                      case .object(var fields) = popups[j].value.kind else { continue }
                if let k = fields.firstIndex(where: { $0.key == "respond" }) { fields[k].value = value } else { fields.append(member("respond", value)) }
                popups[j].value.kind = .object(fields)
            }
            members[i].value.kind = .object(popups)
        }
        let events = scenario.events.map { e in object([("at", integer(e.at))] + action(e.action, scenario)) }
        let expect = members.firstIndex { $0.key == "expect" } ?? members.count
        members.insert(member("events", JSONValue(.array(events), at: at)), at: expect)
        return JSONWriter.write(JSONValue(.object(members), at: root.location)) + "\n"
    }

    /// A popup's answers as `respond` writes them: one object for every show, or a list show by
    /// show (`null`: none) whose last answer answers every show past it — `respond` appended when
    /// it is not already the list's last answer. Nil when nobody answers.
    static func answers(_ popup: Popup) -> JSONValue? {
        func answer(_ r: Response) -> JSONValue { object([("after", integer(r.after)), ("button", string(r.button))]) }
        guard !popup.respondByShow.isEmpty else { return popup.respond.map(answer) }
        var list = popup.respondByShow
        if let respond = popup.respond, list.last(where: { $0 != nil }) ?? nil != respond { list.append(respond) }
        return JSONValue(.array(list.map { $0.map(answer) ?? JSONValue(.null, at: at) }), at: at)
    }

    /// An action as the members of an event object, in the scenario vocabulary.
    static func action(_ a: Action, _ s: Scenario) -> [(String, JSONValue)] {
        func name(_ p: PopupID) -> JSONValue { string(s.name(of: p)) }
        let yes = JSONValue(.bool(true), at: at)
        // The key is the action's word (`Action.keyword`, the vocabulary's); only the value is
        // written here, by the shape of its argument.
        let value: JSONValue
        switch a {
        case .enqueue(let p), .dismiss(let p), .remove(let p): value = name(p)
        case .enqueueMany(let ps): value = JSONValue(.array(ps.map(name)), at: at)
        case .press(let p, let button): value = object([("popup", name(p)), ("button", string(button))])
        case .set(let values):
            value = object(values.map { v, value in
                let json: JSONValue
                switch value {
                case .string(let t): json = string(t)
                case .integer(let n): json = integer(n)
                case .boolean(let b): json = JSONValue(.bool(b), at: at)
                }
                return (s.state.names[v.index], json)
            })
        case .suspend, .resume, .trigger, .clear, .clearQueue, .clearScreen: value = yes
        case .clearUpTo(let priority): value = integer(priority)
        case .pauseTimers(let t), .resumeTimers(let t): value = target(t, s)
        case .navigate(let n, _):
            switch n {
            case .push(let screen), .popTo(let screen), .replace(let screen): value = string(screen)
            case .pop, .popToRoot: value = yes
            }
        }
        return [(a.keyword, value)]
    }

    /// What production showed a user, as properties a run must meet to show the same: each
    /// popup it showed (`shown`) and no more often than it did (`shows X <= K per` a window
    /// longer than any trace), each it was asked for and never showed (`never shown`), and the
    /// order of their first shows (`before`, each with the next).
    public static func production(_ shows: [PopupID], requested: [PopupID], in s: Scenario) -> [String] {
        var first: [PopupID] = []
        for p in shows where !first.contains(p) { first.append(p) }
        var never: [PopupID] = []
        for p in requested where !first.contains(p) && !never.contains(p) { never.append(p) }
        let times = first.map { p in (p, shows.filter { $0 == p }.count) }
        return first.map { "shown \(s.name(of: $0))" }
            + times.map { "shows \(s.name(of: $0.0)) <= \($0.1) per \(everWindow)" }
            + never.map { "never shown \(s.name(of: $0))" }
            + zip(first, first.dropFirst()).map { "\(s.name(of: $0)) before \(s.name(of: $1))" }
    }

    /// A window longer than any user's trace (31 years), for "no more shows than production's".
    static let everWindow = 1_000_000_000_000

    static func target(_ t: TimerTarget, _ s: Scenario) -> JSONValue {
        if case .popup(let p) = t { return string(s.name(of: p)) }
        return JSONValue(.bool(true), at: at)
    }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        JSONValue(.object(members.map { member($0.0, $0.1) }), at: at)
    }

    static func member(_ key: String, _ value: JSONValue) -> JSONValue.Member {
        JSONValue.Member(key: key, keyLocation: at, value: value)
    }

    static func string(_ s: String) -> JSONValue { JSONValue(.string(s), at: at) }
    static func integer(_ n: Int) -> JSONValue { JSONValue(.number(JSONNumber(text: String(n), integer: n, isOutOfRange: false)), at: at) }
}
