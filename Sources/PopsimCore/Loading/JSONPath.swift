/// Where a value sits in a scenario, rendered like `events[3].at` or `popups.upgrade.switch`.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public var components: [Component] = []

    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// Keys that are plain words of at most 40 bytes print bare; any other key prints as `["…"]`,
    /// shortened like every quoted value, so a message stays one readable line.
    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .index(let i):
                out += "[\(i)]"
            case .key(let k) where Self.isPlain(k) && k.utf8.count <= 40:
                out += out.isEmpty ? k : "." + k
            case .key(let k):
                out += "[" + JSONValue.quoted(k) + "]"
            }
        }
        return out
    }

    static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }
    }
}
