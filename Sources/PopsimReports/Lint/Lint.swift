import PopsimCore

/// What `popsim lint` finds in one run: what the strategy ignores, and the hazards the run hit.
///
/// Contract: findings come in file order (ignored fields and actions), then in timeline order
/// (hazards), then the popups stalled at the end. A hazard is a `warning` of the real library
/// (`lost`, `overlap`, `stalled`) or a popup still queued at the end whose condition never held
/// while it waited; everything else is a note. `lint` exits 1 when any hazard is found.
public enum Lint {
    public struct Finding: Sendable, Equatable {
        public var isHazard: Bool
        /// One line, without a trailing newline.
        public var line: String
    }

    public static func findings(_ result: RunResult, entry: StrategyEntry) -> [Finding] {
        // The file's popups: a run's instances (`Saved#2`) are not the file's to lint.
        let file = result.fileScenario
        return (ignored(file, entry: entry, options: result.options) + properties(file) + hazards(result) + stalledAtEnd(result)
            + heldBackAtEnd(result) + neverLeaving(result)).map {
            Finding(isHazard: $0.isHazard, line: TerminalText.safe($0.line))
        }
    }

    /// What `run` says on stderr: one line per field or action the strategy ignores but the file
    /// uses, with how often (lint lists every place).
    public static func ignoredSummary(_ result: RunResult, strategies: StrategySet = .builtIn) -> [String] {
        guard let entry = strategies.entry(named: result.strategy) else { return [] }
        let scenario = result.fileScenario
        var lines: [String] = []
        for field in entry.ignoredFields(under: result.options) {
            let n = scenario.popups.filter { $0.fieldsSet.contains(field) }.count
            if n > 0 { lines.append("\(scenario.file): \(entry.name) ignores the popup field '\(field.key)' (set on \(n) popup\(n == 1 ? "" : "s"); see 'popsim lint')") }
        }
        let actions = entry.ignoredActions(under: result.options)
        guard !actions.isEmpty else { return lines }
        let counts = actionCounts(scenario)
        for action in actions {
            let n = counts[Int(action.ordinal)]
            if n > 0 { lines.append("\(scenario.file): \(entry.name) ignores the action '\(action.keyword)' (\(n) event\(n == 1 ? "" : "s"); see 'popsim lint')") }
        }
        return lines
    }

    /// How many script events of each kind (by `ActionKind.ordinal`): one pass, each event read
    /// in place (this runs after every `run`, on files of millions of events).
    static func actionCounts(_ scenario: Scenario) -> [Int] {
        var counts = [Int](repeating: 0, count: ActionKind.allCases.count)
        scenario.events.withUnsafeBufferPointer { events in
            for i in events.indices { counts[Int(events[i].action.kind.ordinal)] += 1 }
        }
        return counts
    }

    static func ignored(_ scenario: Scenario, entry: StrategyEntry, options: ResolvedOptions) -> [Finding] {
        let fields = entry.ignoredFields(under: options), actions = entry.ignoredActions(under: options)
        var out: [(SourceLocation, String)] = []
        for popup in scenario.popups {
            for (field, location) in scenario.fieldLocations.of(popup) where fields.contains(field) {
                let path = JSONPath.root.appending("popups").appending(popup.name).appending(field.rawValue)
                out.append((location, "\(scenario.file):\(location): \(path): ignored by \(entry.name)"))
            }
        }
        for unpressed in scenario.unpressedButtons() {
            let name = scenario[unpressed.popup].name
            let path = JSONPath.root.appending("popups").appending(name).appending("then").appending(unpressed.button)
            let location = unpressed.location ?? SourceLocation(line: 0, column: 0)
            out.append((location, "\(scenario.file):\(location): \(path): no button '\(unpressed.button)' of '\(name)' is ever pressed: its actions never run"))
        }
        for event in scenario.events where actions.contains(event.action.kind) {
            let path = JSONPath.root.appending("events").appending(event.index).appending(event.action.keyword)
            out.append((event.location, "\(scenario.file):\(event.location): \(path): ignored by \(entry.name)"))
        }
        return out.enumerated().sorted { a, b in
            a.element.0 != b.element.0 ? a.element.0 < b.element.0 : a.offset < b.offset
        }.map { Finding(isHazard: false, line: $0.element.1) }
    }

    static func hazards(_ result: RunResult) -> [Finding] {
        let timeline = result.timeline
        return timeline.entries.compactMap { entry in
            guard entry.event == .warning, let reason = entry.reason else { return nil }
            let name = timeline.subjectName(entry) ?? "-"
            let prefix = "\(result.scenario.file): \(entry.t) ms: \(reason.rawValue): "
            return Finding(isHazard: reason.isHazard, line: prefix + explanation(reason, name, strategy: result.strategy))
        }
    }

    /// What a warning means for the user, in one line.
    static func explanation(_ reason: Reason, _ name: String, strategy: String) -> String {
        switch reason {
        case .lost: return "\(strategy) lost '\(name)': it will never show"
        case .overlap: return "'\(name)' shown while another popup is on screen"
        case .untracked: return "\(strategy) stopped tracking '\(name)' while it is on screen"
        case .stalled: return "\(strategy) stopped at '\(name)': nothing shows after it"
        case .shownAgain: return "\(strategy) called the show of '\(name)' again while it is on screen"
        case .notShown: return "'\(name)' was answered while not fully shown: nothing happened"
        case .notEnqueued: return "'\(name)' was answered but never enqueued: nothing happened"
        case .notOnStack: return "popTo '\(name)', which is not on the stack: nothing happened"
        default: return "'\(name)'"
        }
    }

    /// Popups on screen at the end that nothing could ever take off: no display time (its own or
    /// the strategy's), no simulated user, and no dismiss, press, remove or clear in the script.
    static func neverLeaving(_ result: RunResult) -> [Finding] {
        let takenOff = result.fileScenario.somethingTakesOff()
        let defaultDuration = result.options[.duration]
        return result.onScreen.compactMap { p in
            let popup = result.scenario[p]
            let lasts = popup.duration.map { $0 != .forever } ?? (defaultDuration != nil)
            // An instance is taken off as its popup is (the script names the file's popup).
            guard !lasts, popup.respond == nil, !takenOff[Int(result.timeline.base(p.index))] else { return nil }
            return Finding(isHazard: false, line: "\(result.scenario.file): end: never leaves: '\(popup.name)' has no duration "
                + "and no respond, and nothing in the script dismisses it: it blocks the screen for good")
        }
    }

    /// Properties of `expect` that no run of this scenario can break, or none can keep, whatever
    /// the strategy: they test nothing (notes, not hazards).
    static func properties(_ scenario: Scenario) -> [Finding] {
        let enqueued = scenario.somethingEnqueues()
        let name = { (p: PopupID) in "'\(scenario.name(of: p))'" }
        return scenario.expectations.compactMap { e in
            let why: String
            switch e.property {
            case .shown(let x) where !enqueued[Int(x.index)]:
                why = "can never hold: nothing enqueues \(name(x))"
            case .neverShown(let x) where !enqueued[Int(x.index)],
                 .waitAtMost(let x, _) where !enqueued[Int(x.index)],
                 .showsAtMost(let x?, _, _) where !enqueued[Int(x.index)]:
                why = "can never fail: nothing enqueues \(name(x))"
            case .before(_, let y) where !enqueued[Int(y.index)]:
                why = "can never fail: nothing enqueues \(name(y))"
            case .visibleAtMost(let n) where n >= scenario.popups.count:
                why = "can never fail: there are only \(scenario.popups.count) popups"
            default:
                return nil
            }
            return Finding(isHazard: false, line: "\(scenario.file):\(e.location.line):\(e.location.column): expect: "
                + "'\(e.text)' \(why)")
        }
    }

    /// Popups still queued at the end because a rule holds them back (a condition that held at
    /// some point, suspend, pacing): notes; a condition that never held is `stalledAtEnd`'s hazard.
    static func heldBackAtEnd(_ result: RunResult) -> [Finding] {
        let stalled = Set(stalledPopups(result))
        var seen = Set<PopupID>()
        return zip(result.pending, result.heldBack).compactMap { p, why in
            guard let why, seen.insert(p).inserted, !(why == .condition && stalled.contains(p)) else { return nil }
            let popup = result.scenario[p]
            let detail = why == .condition ? " (\(popup.whenText ?? "?"))" : ""
            return Finding(isHazard: false, line: "\(result.scenario.file): end: held back: '\(popup.name)' is still queued, "
                + "held back by \(why.phrase)\(detail)")
        }
    }

    static func stalledAtEnd(_ result: RunResult) -> [Finding] {
        stalledPopups(result).map { p in
            let popup = result.scenario[p]
            return Finding(isHazard: true, line: "\(result.scenario.file): end: stalled: '\(popup.name)' is still queued "
                + "and its condition never held while it waited (\(popup.whenText ?? "?"))")
        }
    }

    /// The popups still queued whose condition never held while they waited (each once; none the
    /// strategy reported as stalled itself).
    static func stalledPopups(_ result: RunResult) -> [PopupID] {
        guard !result.stateHistory.isEmpty else { return [] }
        var seen = Set(result.timeline.entries.filter { $0.reason == .stalled && $0.subject >= 0 }
            .map { PopupID(Int($0.subject)) })
        return result.pending.filter { p in
            guard seen.insert(p).inserted, let condition = result.scenario[p].when else { return false }
            return !everHeld(condition, p, result)
        }
    }

    /// Whether `condition` held in the state in force when `p` was first enqueued, or in any later one.
    static func everHeld(_ condition: Condition, _ p: PopupID, _ result: RunResult) -> Bool {
        guard let enqueued = result.timeline.entries.firstIndex(where: { $0.event == .enqueue && $0.subject == p.index }) else {
            return false
        }
        let history = result.stateHistory
        let first = history.lastIndex { $0.position <= enqueued } ?? 0
        return history[first...].contains { condition.holds($0.values) }
    }
}
