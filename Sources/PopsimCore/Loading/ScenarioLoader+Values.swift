/// Typed readers: each checks one value and reports what it expected and what it got.
extension ScenarioLoader {
    /// The members of an object whose keys are fixed words: unknown and duplicate keys are reported.
    mutating func fields(of v: JSONValue, _ path: JSONPath, allowed: [String]) -> [String: JSONValue]? {
        guard case .object(let list) = v.kind else {
            report(.expected("an object", got: v.errorDescription), at: v.location, path)
            return nil
        }
        var out: [String: JSONValue] = [:]
        for member in list {
            if !allowed.contains(member.key) {
                report(.unknownKey(member.key, suggestion: hint(member.key, among: allowed)),
                       at: member.keyLocation, path.appending(member.key))
            } else if out[member.key] != nil {
                report(.duplicateKey(member.key), at: member.keyLocation, path.appending(member.key))
            } else {
                out[member.key] = member.value
            }
        }
        return out
    }

    /// The members of an object whose keys are the user's names, in file order, duplicates reported.
    mutating func members(of v: JSONValue, _ path: JSONPath) -> [JSONValue.Member] {
        guard case .object(let list) = v.kind else {
            report(.expected("an object", got: v.errorDescription), at: v.location, path)
            return []
        }
        return firstOccurrences(list.map { ($0.key, $0.keyLocation) }, path).map { list[$0] }
    }

    /// The indices of `names` whose key comes for the first time, in file order; each repeat is
    /// reported as a duplicate key. For ASCII names (equal as strings exactly when their bytes
    /// are), by bytes in `seen`, which then maps each first occurrence to its index.
    mutating func firstOccurrences(ascii names: [(key: String, keyLocation: SourceLocation)], _ path: JSONPath,
                                   into seen: inout NameTable) -> [Int] {
        let (table, repeats) = NameTable.firstOccurrences(names.lazy.map(\.key))
        seen = table
        var out: [Int] = []
        out.reserveCapacity(names.count - repeats.count)
        var r = 0
        for i in names.indices {
            if r < repeats.count, repeats[r] == i {
                r += 1
                report(.duplicateKey(names[i].key), at: names[i].keyLocation, path.appending(names[i].key))
            } else {
                out.append(i)
            }
        }
        return out
    }

    /// As `firstOccurrences(ascii:)` for names of any characters: equal as Swift compares
    /// strings (canonical equivalence), as JSON object keys are compared everywhere else.
    mutating func firstOccurrences(_ names: [(key: String, keyLocation: SourceLocation)], _ path: JSONPath) -> [Int] {
        var seen = Set<String>(minimumCapacity: names.count)
        var out: [Int] = []
        out.reserveCapacity(names.count)
        for (i, name) in names.enumerated() {
            if seen.insert(name.key).inserted {
                out.append(i)
            } else {
                report(.duplicateKey(name.key), at: name.keyLocation, path.appending(name.key))
            }
        }
        return out
    }

    mutating func integer(_ v: JSONValue, _ path: JSONPath, minimum: Int? = nil) -> Int? {
        let what = minimum.map { "an integer >= \($0)" } ?? "an integer"
        guard case .number(let n) = v.kind else {
            report(.expected(what, got: v.errorDescription), at: v.location, path)
            return nil
        }
        guard let value = n.integer else {
            let range = n.isOutOfRange ? " (at most \(Int.max))" : ""
            report(.expected(what + range, got: v.errorDescription), at: v.location, path)
            return nil
        }
        if let minimum, value < minimum {
            report(.expected(what, got: v.errorDescription), at: v.location, path)
            return nil
        }
        return value
    }

    mutating func string(_ v: JSONValue, _ path: JSONPath, nonEmpty: Bool = false) -> String? {
        guard case .string(let s) = v.kind, !(nonEmpty && s.isEmpty) else {
            report(.expected(nonEmpty ? "a non-empty string" : "a string", got: v.errorDescription), at: v.location, path)
            return nil
        }
        return s
    }

    mutating func choice(_ v: JSONValue, _ path: JSONPath, _ words: [String]) -> String? {
        guard case .string(let s) = v.kind, words.contains(s) else {
            var suggestion: String?
            if case .string(let s) = v.kind { suggestion = hint(s, among: words) }
            report(.expectedOneOf(words, got: v.errorDescription, suggestion: suggestion), at: v.location, path)
            return nil
        }
        return s
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ v: JSONValue, _ path: JSONPath, _ type: E.Type) -> E?
    where E.RawValue == String {
        choice(v, path, E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }

    /// An action that takes no argument is written `true`.
    mutating func flag(_ v: JSONValue, _ path: JSONPath) -> Bool {
        guard case .bool(true) = v.kind else {
            report(.expected("true", got: v.errorDescription), at: v.location, path)
            return false
        }
        return true
    }

    mutating func boolean(_ v: JSONValue, _ path: JSONPath) -> Bool {
        guard case .bool(let b) = v.kind else {
            report(.expected("true or false", got: v.errorDescription), at: v.location, path)
            return false
        }
        return b
    }

    mutating func stateValue(_ v: JSONValue, _ path: JSONPath) -> StateValue? {
        switch v.kind {
        case .string(let s): return .string(s)
        case .bool(let b): return .boolean(b)
        case .number(let n) where n.integer != nil: return n.integer.map(StateValue.integer)
        default:
            report(.expected("a string, an integer or a boolean", got: v.errorDescription), at: v.location, path)
            return nil
        }
    }

    /// A reference to a declared popup.
    mutating func popupRef(_ v: JSONValue, _ path: JSONPath) -> PopupID? {
        guard let name = string(v, path) else { return nil }
        if let id = Self.popupID(named: name, in: popupTable) { return id }
        report(.unknownPopup(name, suggestion: popupHint(name)), at: v.location, path)
        return nil
    }
}
