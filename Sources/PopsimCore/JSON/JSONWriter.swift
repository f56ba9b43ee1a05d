/// Writes a JSON tree back as text: objects and arrays of scalars on one line, larger ones one
/// member per line, indented by two — readable, and stable for a file to be committed.
public enum JSONWriter {
    public static func write(_ v: JSONValue, indent: Int = 0) -> String {
        switch v.kind {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = members.map { JSONValue.literal($0.key) + ": " + write($0.value, indent: indent + 2) }
            return wrap(inner, open: "{", close: "}", flat: members.allSatisfy { isSmall($0.value) }, indent: indent)
        case .array(let items):
            if items.isEmpty { return "[]" }
            let inner = items.map { write($0, indent: indent + 2) }
            return wrap(inner, open: "[", close: "]", flat: items.allSatisfy { isSmall($0) }, indent: indent)
        case .string(let s): return JSONValue.literal(s)
        case .number(let n): return n.text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    static func isSmall(_ v: JSONValue) -> Bool {
        switch v.kind {
        case .object(let m): return m.count <= 3 && m.allSatisfy { isScalar($0.value) }
        case .array(let a): return a.count <= 8 && a.allSatisfy(isScalar)
        default: return true
        }
    }

    static func isScalar(_ v: JSONValue) -> Bool {
        switch v.kind {
        case .object, .array: return false
        default: return true
        }
    }

    static func wrap(_ inner: [String], open: String, close: String, flat: Bool, indent: Int) -> String {
        let line = open + inner.joined(separator: ", ") + close
        if flat && line.count + indent <= 100 { return line }
        let pad = String(repeating: " ", count: indent + 2)
        return open + "\n" + inner.map { pad + $0 }.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + close
    }
}
