import Foundation
import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// The invariants of issue 8 on 500 generated scenarios under every strategy (40 in the quick tier).
@Suite("invariants on generated scenarios")
struct GeneratedInvariantTests {
    /// Derived from the registry: every strategy at its defaults, then once per other value of
    /// each of its choice options and once with each of its own integer options at its minimum.
    static let configurations: [(String, [String])] = StrategyRegistry.all.flatMap { entry in
        [(entry.name, [])] + entry.options.filter { !OptionSpec.shared.contains($0.name) }.flatMap { spec -> [(String, [String])] in
            switch spec.kind {
            case .choice(let words):
                return words.filter { .text($0) != spec.defaultValue }.map { (entry.name, ["\(spec.name)=\($0)"]) }
            case .integer(let minimum):
                return spec.defaultValue == .integer(minimum) ? [] : [(entry.name, ["\(spec.name)=\(minimum)"])]
            case .caps:
                // Generated scenarios always have p0: one show of it per 10 s.
                return [(entry.name, ["\(spec.name)=p0:1/10s"])]
            }
        }
    }

    /// Ten blocks of seeds: 50 each with `CI` set (500 scenarios), 4 each in the quick tier.
    @Test(arguments: 0..<10)
    func blockOfSeeds(_ block: Int) throws {
        for seed in (block * 50 + 1)...(block * 50 + TestTier.count(quick: 3, full: 50)) {
            let text = ScenarioGenerator(events: 40, seed: UInt64(seed), popups: 6).generate()
            let scenario = try loadScenario(text).get()
            let inert = try loadScenario(Self.withInertEvent(text, scenario)).get()
            for (strategy, options) in Self.configurations {
                let configuration = try RunConfiguration.resolve(scenario, strategy: strategy, overrides: OptionOverride.parseAll(options))
                let limits = RunLimits(maxStepsPerInstant: 5_000, maxSteps: 100_000, checkInvariants: true)
                let result = try configuration.run(scenario, limits: limits)
                let label = "seed \(seed) \(strategy) \(options)"
                let violations = Self.violations(result) + Self.ledgerViolations(result)
                #expect(violations.isEmpty, "\(label): \(violations.joined(separator: "; "))")
                // Deterministic to the byte, in text and JSON, and the two agree.
                let again = try configuration.run(scenario, limits: limits)
                #expect(TextRenderer.render(again) == TextRenderer.render(result), "\(label): reruns differ")
                let json = JSONRenderer.render(result)
                #expect(json == JSONRenderer.render(again), "\(label): JSON reruns differ")
                #expect(try Self.jsonTimeline(json) == Self.textTimeline(result), "\(label): text and JSON disagree")
                // An event that changes nothing leaves the timeline as it was.
                let withInert = try configuration.run(inert, limits: limits)
                #expect(TimelineText.render(withInert.timeline) == TimelineText.render(result.timeline), "\(label): inert event changed the timeline")
            }
        }
    }

    /// Everything a timeline must satisfy; empty when all hold.
    static func violations(_ result: RunResult) -> [String] {
        var out: [String] = []
        let timeline = result.timeline
        let slots = result.options.integerIfSet("slots") ?? 1
        let crossFades = result.crossFades
        let animated = timeline.animatedTransitions()
        var phase = [Phase](repeating: .hidden, count: timeline.subjects.count)
        var visible = 0
        var enqueued = Set<Int32>(), shown = Set<Int32>(), dropped = Set<Int32>(), lost = Set<Int32>()
        var previous: Timeline.Entry?
        for (i, entry) in timeline.entries.enumerated() {
            if let p = previous, entry.t < p.t { out.append("time went back at \(entry.t)") }
            defer { previous = entry }
            let s = entry.subject
            guard s >= 0, Int(s) < result.scenario.popups.count else { continue }
            let name = timeline.subjects[Int(s)]
            switch entry.event {
            case .enqueue: enqueued.insert(s)
            case .show:
                if phase[Int(s)] != .hidden { out.append("\(name) shown twice at \(entry.t)") }
                phase[Int(s)] = animated[i] ? .presenting : .shown
                visible += 1
                shown.insert(s)
                let occupied = crossFades ? phase.filter { $0 == .presenting || $0 == .shown }.count : visible
                if occupied > slots, !(previous?.event == .warning && previous?.reason == .overlap && previous?.subject == s) {
                    out.append("\(visible) on screen at \(entry.t) without an overlap warning")
                }
            case .shown:
                if phase[Int(s)] != .presenting { out.append("\(name) shown without presenting at \(entry.t)") }
                phase[Int(s)] = .shown
            case .hide:
                if phase[Int(s)] != .presenting && phase[Int(s)] != .shown { out.append("\(name) hidden before shown at \(entry.t)") }
                phase[Int(s)] = animated[i] ? .hiding : .hidden
                if !animated[i] { visible -= 1 }
            case .gone:
                if phase[Int(s)] != .hiding { out.append("\(name) gone without hiding at \(entry.t)") }
                phase[Int(s)] = .hidden
                visible -= 1
            case .drop: dropped.insert(s)
            case .warning where entry.reason == .lost: lost.insert(s)
            default: break
            }
        }
        let pending = Set(result.pending.map(\.index))
        for s in enqueued where !shown.contains(s) && !dropped.contains(s) && !lost.contains(s) && !pending.contains(s) {
            out.append("\(timeline.subjects[Int(s)]) enqueued but never shown, dropped, lost or pending")
        }
        return out
    }

    /// The exact fate of every request: `enqueue`, `requeue`, `hide … temporary` and `hide … covered` open one;
    /// `show`, `drop` and `warning … lost` settle one; what is open at the end is the pending list.
    static func ledgerViolations(_ result: RunResult) -> [String] {
        var out: [String] = []
        let timeline = result.timeline
        var open = [Int](repeating: 0, count: timeline.subjects.count)
        for entry in timeline.entries {
            let s = Int(entry.subject)
            guard s >= 0, s < result.scenario.popups.count else { continue }
            switch entry.ledger {
            case .opens: open[s] += 1
            case .settles: open[s] -= 1
            case .none: continue
            }
            if open[s] < 0 {
                out.append("\(timeline.subjects[s]) \(entry.event.rawValue) \(entry.reason?.rawValue ?? "") at \(entry.t) settles no open request")
                open[s] = 0
            }
        }
        var pending = [Int](repeating: 0, count: open.count)
        for p in result.pending { pending[Int(p.index)] += 1 }
        for s in open.indices where open[s] != pending[s] {
            out.append("\(timeline.subjects[s]) ends with \(open[s]) open requests but \(pending[s]) pending")
        }
        return out
    }

    /// (t, event, subject, reason) per line of the text form.
    static func textTimeline(_ result: RunResult) -> [String] {
        result.timeline.entries.map { e in
            "\(e.t) \(e.event.rawValue) \(result.timeline.subjectName(e) ?? "-") \(e.reason?.rawValue ?? "")"
        }
    }

    /// The same from the JSON form, read back with popsim's own reader.
    static func jsonTimeline(_ json: String) throws -> [String] {
        let root = try JSONReader.parse(Array(json.utf8))
        guard case .object(let members) = root.kind, let timeline = members.first(where: { $0.key == "timeline" }),
              case .array(let entries) = timeline.value.kind else { return ["no timeline"] }
        return entries.map { entry in
            guard case .object(let fields) = entry.kind else { return "?" }
            func text(_ key: String) -> String {
                switch fields.first(where: { $0.key == key })?.value.kind {
                case .string(let s)?: return s
                case .number(let n)?: return n.text
                default: return ""
                }
            }
            // An instance is its popup and its number (`"popup": "A", "instance": 2` is `A#2`).
            let popup = text("popup") + (text("instance").isEmpty ? "" : "#" + text("instance"))
            let subject = popup.isEmpty ? (text("screen").isEmpty ? "-" : text("screen")) : popup
            return "\(text("t")) \(text("event")) \(subject) \(text("reason"))"
        }
    }

    /// The script plus `set level` to the value it already has, at an instant of its own.
    static func withInertEvent(_ text: String, _ scenario: Scenario) -> String {
        let last = scenario.events.last?.at ?? 0
        let at = last / 2 * 2 + 1
        var level = 1
        for event in scenario.events where event.at < at {
            if case .set(let changes) = event.action {
                for (variable, value) in changes where scenario.state.names[variable.index] == "level" {
                    if case .integer(let n) = value { level = n }
                }
            }
        }
        let marker = "  \"events\": [\n"
        return text.replacingOccurrences(of: marker, with: marker + "    {\"at\": \(at), \"set\": {\"level\": \(level)}},\n")
    }
}
