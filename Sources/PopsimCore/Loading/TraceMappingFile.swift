/// A trace mapping file (`replay --mapping FILE.json`): how a team's export reads as a trace,
/// kept beside the catalog. One JSON object:
///
/// ```json
/// {"columns": {"user": "user_id", "time": "ts", "action": "event", "popup": "popup_id", "value": "screen"},
///  "time": "iso8601", "timeZone": "+01:00",
///  "events": {"popup_requested": "enqueue", "popup_impression": "shown", "screen_view": "set screen"},
///  "popups": {"upgrade_v2": "upgrade"}}
/// ```
///
/// Contract: every key optional; every problem reported at once, located, with a suggestion
/// where a name is close to one popsim knows (a key, a field, a verb, a popup, a state variable).
public enum TraceMappingFile {
    public static let keys = ["description", "columns", "time", "timeZone", "events", "popups"]
    /// What a time zone must be, in errors of the file and of `--time-zone` alike.
    public static let timeZoneExpected = "UTC, Z or an offset like +01:00 (a named zone with summer time: convert the times in the export)"
    /// How a meaning may go on after its word.
    public static let meaningNote = "a word may be followed by a value: set screen takes the row's value as the screen; set foreground=false and replace home are fixed"

    /// The layout `base` (its format, the command line's choices) with the file's mapping,
    /// columns and time unit in it; or every error.
    public static func load(_ bytes: [UInt8], file: String, catalog: Scenario, into base: TraceLayout) -> Result<TraceLayout, LoadErrors> {
        let root: JSONValue
        switch ScenarioLoader.parseRoot(bytes, file: file) {
        case .success(let value): root = value
        case .failure(let errors): return .failure(errors)
        }
        var reading = Reading(file: file, catalog: catalog, layout: base)
        reading.read(root)
        return reading.errors.isEmpty ? .success(reading.layout) : .failure(LoadErrors(reading.errors))
    }

    struct Reading {
        let file: String
        let catalog: Scenario
        var layout: TraceLayout
        var errors: [LoadError] = []

        init(file: String, catalog: Scenario, layout: TraceLayout) {
            self.file = file
            self.catalog = catalog
            self.layout = layout
        }

        mutating func fail(_ v: JSONValue, _ path: JSONPath, _ problem: LoadProblem) {
            errors.append(LoadError(file: file, location: v.location, path: path, problem: problem))
        }

        mutating func members(_ v: JSONValue, _ path: JSONPath) -> [JSONValue.Member] {
            guard case .object(let m) = v.kind else {
                fail(v, path, .expected("an object", got: v.errorDescription))
                return []
            }
            var seen = Set<String>()
            for member in m where !seen.insert(member.key).inserted {
                errors.append(LoadError(file: file, location: member.keyLocation, path: path.appending(member.key), problem: .duplicateKey(member.key)))
            }
            return m
        }

        mutating func string(_ v: JSONValue, _ path: JSONPath) -> String? {
            guard case .string(let s) = v.kind, !s.isEmpty else {
                fail(v, path, .expected("a string that is not empty", got: v.errorDescription))
                return nil
            }
            return s
        }

        mutating func read(_ root: JSONValue) {
            for m in members(root, .root) {
                let path = JSONPath.root.appending(m.key)
                switch m.key {
                case "description": _ = string(m.value, path)
                case "columns": columns(m.value, path)
                case "time":
                    guard let s = string(m.value, path) else { continue }
                    guard let unit = TraceLayout.TimeUnit(rawValue: s) else {
                        let units = TraceLayout.TimeUnit.allCases.map(\.rawValue)
                        fail(m.value, path, .expectedOneOf(units, got: m.value.errorDescription, suggestion: Suggestion.closest(s, among: units)))
                        continue
                    }
                    layout.timeUnit = unit
                case "timeZone":
                    guard let s = string(m.value, path) else { continue }
                    guard let minutes = TraceMapping.timeZone(s) else {
                        fail(m.value, path, .expected(TraceMappingFile.timeZoneExpected, got: m.value.errorDescription))
                        continue
                    }
                    layout.mapping.timeZoneMinutes = minutes
                case "events": events(m.value, path)
                case "popups": popups(m.value, path)
                default:
                    errors.append(LoadError(file: file, location: m.keyLocation, path: path,
                                            problem: .unknownKey(m.key, suggestion: Suggestion.closest(m.key, among: TraceMappingFile.keys))))
                }
            }
            if Set(layout.names).count != layout.names.count {
                fail(root, JSONPath.root.appending("columns"), .expected("each column for one field", got: layout.names.joined(separator: ", ")))
            }
        }

        mutating func columns(_ v: JSONValue, _ path: JSONPath) {
            let fields = TraceField.allCases.map(\.rawValue)
            for m in members(v, path) {
                guard let field = TraceField(rawValue: m.key) else {
                    errors.append(LoadError(file: file, location: m.keyLocation, path: path.appending(m.key),
                                            problem: .expectedOneOf(fields, got: JSONValue.quoted(m.key), suggestion: Suggestion.closest(m.key, among: fields))))
                    continue
                }
                if let name = string(m.value, path.appending(m.key)) { layout.names[field.ordinal] = name }
            }
        }

        mutating func events(_ v: JSONValue, _ path: JSONPath) {
            let words = TraceVerb.all.map(\.word)
            for m in members(v, path) {
                let at = path.appending(m.key)
                guard let text = string(m.value, at) else { continue }
                guard let meaning = TraceMapping.meaning(text) else {
                    let first = String(text.prefix { $0 != " " })
                    fail(m.value, at, .expectedOneOf(words, got: m.value.errorDescription, suggestion: Suggestion.closest(first, among: words),
                                                     note: TraceMappingFile.meaningNote))
                    continue
                }
                if case .setVariable(let name) = meaning, !catalog.state.names.contains(name) {
                    fail(m.value, at, .unknownState(name, suggestion: Suggestion.closest(name, among: catalog.state.names)))
                    continue
                }
                if let refused = TraceMapping.refusedValue(meaning) {
                    fail(m.value, at, .expected("\(JSONValue.quoted(refused.verb.word)) alone (it takes no value)", got: m.value.errorDescription))
                    continue
                }
                layout.mapping.events.append((m.key, meaning))
            }
        }

        mutating func popups(_ v: JSONValue, _ path: JSONPath) {
            let names = catalog.popups.map(\.name)
            for m in members(v, path) {
                let at = path.appending(m.key)
                guard let popup = string(m.value, at) else { continue }
                guard names.contains(popup) else {
                    fail(m.value, at, .unknownPopup(popup, suggestion: Suggestion.closest(popup, among: names)))
                    continue
                }
                layout.mapping.popups.append((m.key, popup))
            }
        }
    }
}
