/// A decoded trace row as bytes and back: what a partition file holds when a trace's users are
/// not together and too many to keep in memory (`replay`'s temporary partitions).
///
/// Contract: `decode(encode(x)) == x` for every entry a trace row can give; the bytes are
/// popsim's own (native endianness, same process), never a file format.
public enum TraceEntryCodec {
    public static func encode(user: UnsafeBufferPointer<UInt8>, _ e: TraceEntry, into out: inout [UInt8]) {
        int(user.count, &out)
        out.append(contentsOf: user)
        int(e.time, &out)
        int(e.row, &out)
        int(e.location.line, &out)
        int(e.location.column, &out)
        switch e.kind {
        case .shown(let p): tag(40, p, &out)
        case .dismissed(let p, let button):
            tag(41, p, &out)
            text(button, &out)
        case .action(let a): action(a, &out)
        }
    }

    static func action(_ a: Action, _ out: inout [UInt8]) {
        switch a {
        case .enqueue(let p): tag(0, p, &out)
        case .dismiss(let p): tag(1, p, &out)
        case .remove(let p): tag(2, p, &out)
        case .press(let p, let button):
            tag(3, p, &out)
            text(button, &out)
        case .set(let values):
            out.append(4)
            int(values.count, &out)
            for (v, value) in values {
                int(v.index, &out)
                switch value {
                case .string(let s): out.append(0); text(s, &out)
                case .integer(let n): out.append(1); int(n, &out)
                case .boolean(let b): out.append(b ? 3 : 2)
                }
            }
        case .suspend: out.append(5)
        case .resume: out.append(6)
        case .trigger: out.append(7)
        case .clear: out.append(8)
        case .pauseTimers(let t): target(9, t, &out)
        case .resumeTimers(let t): target(10, t, &out)
        case .navigate(let n, _):
            switch n {
            case .push(let s): out.append(11); text(s, &out)
            case .pop: out.append(12)
            case .popToRoot: out.append(13)
            case .popTo(let s): out.append(14); text(s, &out)
            case .replace(let s): out.append(15); text(s, &out)
            }
        case .enqueueMany(let ps):
            out.append(16)
            int(ps.count, &out)
            for p in ps { int(Int(p.index), &out) }
        }
    }

    /// Every entry of `bytes`, in order: (user, entry); nil if they are not popsim's encoding.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, TraceEntry) -> Void) -> Bool {
        var r = Reader(bytes: bytes)
        while r.at < bytes.count {
            guard let n = r.int(), n >= 0, r.at + n <= bytes.count else { return false }
            let user = UnsafeBufferPointer(rebasing: bytes[r.at..<(r.at + n)])
            r.at += n
            guard let time = r.int(), let row = r.int(), let line = r.int(), let column = r.int(), let kind = r.kind() else { return false }
            body(user, TraceEntry(time: time, kind: kind, row: row, location: SourceLocation(line: line, column: column)))
        }
        return true
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func int() -> Int? {
            guard at + 8 <= bytes.count else { return nil }
            var v = 0
            for k in 0..<8 { v |= Int(bytes[at + k]) << (8 * k) }
            at += 8
            return v
        }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            at += 1
            return bytes[at - 1]
        }

        mutating func text() -> String? {
            guard let n = int(), n >= 0, at + n <= bytes.count else { return nil }
            defer { at += n }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<(at + n)]), as: UTF8.self)
        }

        mutating func optionalText() -> String?? {
            guard let flag = byte() else { return nil }
            return flag == 0 ? .some(nil) : text().map { .some($0) }
        }

        mutating func popup() -> PopupID? { int().map { PopupID($0) } }

        mutating func kind() -> TraceEntry.Kind? {
            guard let t = byte() else { return nil }
            switch t {
            case 40: return popup().map { .shown($0) }
            case 41:
                guard let p = popup(), let b = optionalText() else { return nil }
                return .dismissed(p, button: b)
            default: return action(t).map { .action($0) }
            }
        }

        mutating func action(_ t: UInt8) -> Action? {
            switch t {
            case 0: return popup().map { .enqueue($0) }
            case 1: return popup().map { .dismiss($0) }
            case 2: return popup().map { .remove($0) }
            case 3:
                guard let p = popup(), let button = text() else { return nil }
                return .press(p, button: button)
            case 4:
                guard let n = int(), n >= 0, n <= bytes.count else { return nil }
                var values: [(VariableID, StateValue)] = []
                for _ in 0..<n {
                    guard let v = int(), let type = byte() else { return nil }
                    switch type {
                    case 0: guard let s = text() else { return nil }; values.append((VariableID(index: v), .string(s)))
                    case 1: guard let i = int() else { return nil }; values.append((VariableID(index: v), .integer(i)))
                    default: values.append((VariableID(index: v), .boolean(type == 3)))
                    }
                }
                return .set(values)
            case 5: return .suspend
            case 6: return .resume
            case 7: return .trigger
            case 8: return .clear
            case 9, 10:
                guard let p = int() else { return nil }
                let target: TimerTarget = p < 0 ? .all : .popup(PopupID(p))
                return t == 9 ? .pauseTimers(target) : .resumeTimers(target)
            case 11: return text().map { .navigate(.push($0), then: []) }
            case 12: return .navigate(.pop, then: [])
            case 13: return .navigate(.popToRoot, then: [])
            case 14: return text().map { .navigate(.popTo($0), then: []) }
            case 15: return text().map { .navigate(.replace($0), then: []) }
            case 16:
                guard let n = int(), n >= 0, n <= bytes.count else { return nil }
                var ps: [PopupID] = []
                for _ in 0..<n { guard let p = popup() else { return nil }; ps.append(p) }
                return .enqueueMany(ps)
            default: return nil
            }
        }
    }

    static func int(_ v: Int, _ out: inout [UInt8]) {
        for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }

    static func tag(_ t: UInt8, _ p: PopupID, _ out: inout [UInt8]) {
        out.append(t)
        int(Int(p.index), &out)
    }

    static func text(_ s: String, _ out: inout [UInt8]) {
        int(s.utf8.count, &out)
        out.append(contentsOf: s.utf8)
    }

    static func text(_ s: String?, _ out: inout [UInt8]) {
        guard let s else { return out.append(0) }
        out.append(1)
        text(s, &out)
    }

    static func target(_ t: UInt8, _ target: TimerTarget, _ out: inout [UInt8]) {
        out.append(t)
        if case .popup(let p) = target { int(Int(p.index), &out) } else { int(-1, &out) }
    }
}
