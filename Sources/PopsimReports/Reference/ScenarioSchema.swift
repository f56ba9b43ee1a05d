import PopsimCore

/// `popsim schema`: a JSON Schema (draft 2020-12) of the scenario format, made from the vocabulary
/// (`PopupField`, `ActionKind`) and the registry, so that editors validate and complete scenario
/// files. It checks shapes; what only popsim can know (popup ids, state names and types, a
/// strategy's options, conditions) is left to `popsim lint --load-only`.
public enum ScenarioSchema {
    public static func render() -> String {
        let popupFields = PopupField.allCases.map { field in
            "      \(s(field.key)): " + described(fieldSchema(field.type), field.meaning)
        }.joined(separator: ",\n")
        let actions = ActionKind.allCases.map { kind in
            "    \(s(kind.keyword)): " + described(argumentSchema(kind.argument), kind.meaning)
        }.joined(separator: ",\n")
        let oneAction = ActionKind.allCases.map { #"{"required": [\#(s($0.keyword))]}"# }.joined(separator: ", ")
        // As the loader: `then` only after a navigation event, `order` only on an enqueue of two
        // popups or more.
        let navigation = ActionKind.allCases.filter(\.isNavigation).map { #"{"required": [\#(s($0.keyword))]}"# }
            .joined(separator: ", ")
        let thenRule = #"{"if": {"required": ["then"]}, "then": {"anyOf": [\#(navigation)]}}"#
        let orderRule = #"{"if": {"required": ["order"]}, "then": {"required": ["enqueue"], "properties": {"enqueue": {"type": "array", "minItems": 2}}}}"#
        let strategies = StrategyRegistry.names.map(s).joined(separator: ", ")
        return bounded("""
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "title": "popsim scenario (format 1)",
              "type": "object",
              "required": ["popsim"],
              "additionalProperties": false,
              "properties": {
                "popsim": {"const": 1, "description": "the format version"},
                "name": {"type": "string"},
                "description": {"type": "string"},
                "strategy": {"anyOf": [{"enum": [\(strategies)]},
                  {"type": "string", "pattern": "^exec:.+", "description": "a plug-in, relative to this file"}]},
                "policy": {"type": "string", "minLength": 1, "description": "a policy file, relative to this file"},
                "options": {"type": "object", "additionalProperties": {"type": ["integer", "string"]}},
                "state": {"type": "object", "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                  "additionalProperties": {"type": ["string", "integer", "boolean"]}},
                "popups": {"type": "object", "propertyNames": {"pattern": "^[A-Za-z0-9_][A-Za-z0-9_.:-]*$"},
                  "additionalProperties": {"$ref": "#/$defs/popup"}},
                "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
                "until": {"type": "integer", "minimum": 0},
                "expect": {"type": "array", "items": {"oneOf": [
                    {"type": "string", "minLength": 1},
                    {"type": "object", "additionalProperties": false, "required": ["property"], "properties": {
                      "property": {"type": "string", "minLength": 1},
                      "knownToFail": {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": true,
                        "description": "golden labels or strategy names the property is known to fail under: check reports XFAIL there, and fails (XPASS) when it holds"}}}]},
                  "description": "properties every run must keep, such as \\"no overlap\\" or \\"a before b\\""}
              },
              "$defs": {
                "popup": {"type": "object", "additionalProperties": false, "properties": {
            \(popupFields)
                }},
                "event": {"type": "object", "required": ["at"], "unevaluatedProperties": false,
                  "properties": {"at": {"oneOf": [{"type": "integer", "minimum": 0},
                      {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2,
                       "description": "a window [earliest, latest]: the arrival is uncertain"}]},
                    "order": {"const": "any", "description": "an enqueue of a list arrives in any order"},
                    "maybe": {"type": "boolean", "description": "the event may not happen"},
                    "then": {"$ref": "#/$defs/actions"}},
                  "allOf": [{"$ref": "#/$defs/actionKeys"}, \(thenRule), \(orderRule)], "oneOf": [\(oneAction)]},
                "action": {"type": "object", "unevaluatedProperties": false, "properties": {"then": {"$ref": "#/$defs/actions"}},
                  "allOf": [{"$ref": "#/$defs/actionKeys"}, \(thenRule)], "oneOf": [\(oneAction)]},
                "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
                "actionKeys": {"properties": {
            \(actions)
                }}
              }
            }

            """)
    }

    /// Every integer the schema allows bounded as the loader bounds it (64-bit): an editor never
    /// accepts a number popsim refuses (issue 41).
    static func bounded(_ text: String) -> String {
        let most = "\(Int.max)", least = "\(Int.min)"
        return text
            .replacing(#""type": "integer", "minimum": "#, with: #""type": "integer", "maximum": \#(most), "minimum": "#)
            .replacing(#"{"type": "integer"}"#, with: #"{"type": "integer", "minimum": \#(least), "maximum": \#(most)}"#)
            .replacing(#""type": ["integer", "string"]"#, with: #""type": ["integer", "string"], "minimum": \#(least), "maximum": \#(most)"#)
            .replacing(#""type": ["string", "integer", "boolean"]"#,
                          with: #""type": ["string", "integer", "boolean"], "minimum": \#(least), "maximum": \#(most)"#)
    }

    static func fieldSchema(_ type: PopupField.ValueType) -> String {
        switch type {
        case .priority:
            let names = ScenarioLoader.namedPriorities.map { s($0.0) }.joined(separator: ", ")
            return #"{"oneOf": [{"type": "integer"}, {"enum": [\#(names)]}]"#
        case .condition: return #"{"type": "string", "minLength": 1"#
        case .duration: return #"{"oneOf": [{"type": "integer", "minimum": 0}, {"const": "forever"}]"#
        case .respond:
            let answer = #"{"type": "object", "required": ["after"], "additionalProperties": false, "#
                + #""properties": {"after": {"type": "integer", "minimum": 0}, "button": {"type": "string", "minLength": 1}}}"#
            return #"{"oneOf": [\#(answer), {"type": "array", "items": {"oneOf": [\#(answer), {"type": "null"}]}}]"#
        case .buttons: return ##"{"type": "object", "additionalProperties": {"$ref": "#/$defs/actions"}"##
        case .text: return #"{"type": "string""#
        case .boolean: return #"{"type": "boolean""#
        case .choice(let words): return #"{"enum": [\#(words.map(s).joined(separator: ", "))]"#
        case .integer(let minimum): return #"{"type": "integer", "minimum": \#(minimum)"#
        }
    }

    static func argumentSchema(_ argument: ActionKind.Argument) -> String {
        let id = #"{"type": "string", "minLength": 1}"#
        switch argument {
        case .popups: return #"{"oneOf": [\#(id), {"type": "array", "minItems": 1, "items": \#(id)}]"#
        case .popup: return String(id.dropLast())
        case .press:
            return #"{"type": "object", "required": ["popup", "button"], "additionalProperties": false, "#
                + #""properties": {"popup": \#(id), "button": \#(id)}"#
        case .state: return #"{"type": "object", "minProperties": 1, "additionalProperties": {"type": ["string", "integer", "boolean"]}"#
        case .flag: return #"{"const": true"#
        case .screen: return String(id.dropLast())
        case .timerTarget: return #"{"oneOf": [{"const": true}, \#(id)]"#
        case .priority: return fieldSchema(.priority)
        }
    }

    /// Closes an object schema opened by the helpers above with its description.
    static func described(_ open: String, _ meaning: String) -> String { open + ", \"description\": \(s(meaning))}" }

    static func s(_ text: String) -> String { JSONValue.literal(text) }
}
