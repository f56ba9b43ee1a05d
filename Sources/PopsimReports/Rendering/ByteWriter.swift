import PopsimCore

/// A buffered writer that renderers format straight into: bytes, not Strings.
///
/// Contract: with a sink (the CLI's file descriptor) it flushes every 64 KiB and on `flush()`; in
/// memory it keeps everything (`text`). A failed write is remembered (`failed`) and later writes are dropped, so a
/// closed pipe never crashes popsim. `withSpace` hands a renderer a pointer to write a whole line
/// at once; the other methods are built on it.
public struct ByteWriter: Sendable {
    /// Pre-sized storage; only the first `count` bytes are written.
    private var storage: [UInt8]
    private var count = 0
    /// Where full buffers go; returns false when the write failed.
    public typealias Sink = @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    private let sink: Sink?
    public private(set) var failed = false
    static let chunk = 1 << 16

    /// Collects in memory.
    public init() {
        self.init(capacity: 4096)
    }

    /// Collects in memory, with room for `capacity` bytes from the start.
    public init(capacity: Int) {
        sink = nil
        storage = [UInt8](repeating: 0, count: max(capacity, 4096))
    }

    /// Hands everything written to `sink`, a chunk at a time.
    public init(sink: @escaping Sink) {
        self.sink = sink
        storage = [UInt8](repeating: 0, count: Self.chunk * 2)
    }

    /// What was written and not yet flushed (everything, when collecting in memory).
    public var bytes: [UInt8] { Array(storage[..<count]) }

    /// What was written, when collecting in memory.
    public var text: String { String(decoding: storage[..<count], as: UTF8.self) }

    /// Lets `body` write at most `capacity` bytes at once; it returns how many it wrote.
    public mutating func withSpace(_ capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + capacity > storage.count {
            flushIfFull()
            if count + capacity > storage.count {
                storage.append(contentsOf: repeatElement(0, count: max(storage.count, count + capacity - storage.count)))
            }
        }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return body(base + start)
        }
    }

    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(bytes: $0) }
    }

    public mutating func write(bytes more: [UInt8]) {
        more.withUnsafeBufferPointer { write(bytes: $0) }
    }

    public mutating func write(bytes more: UnsafeBufferPointer<UInt8>) {
        withSpace(more.count) { out in
            if let base = more.baseAddress { out.update(from: base, count: more.count) }
            return more.count
        }
        flushIfFull()
    }

    /// What `other` collected in memory, after what this one holds: handed to the sink in one
    /// piece (no copy) when there is one.
    public mutating func write(contentsOf other: ByteWriter) {
        other.storage.withUnsafeBufferPointer { all in
            let part = UnsafeBufferPointer(rebasing: all[..<other.count])
            guard let sink else { return write(bytes: part) }
            flush()
            if !failed { failed = !sink(part) }
        }
    }

    public mutating func byte(_ b: UInt8) {
        withSpace(1) { out in
            out[0] = b
            return 1
        }
    }

    public mutating func spaces(_ n: Int) {
        guard n > 0 else { return }
        withSpace(n) { out in
            out.update(repeating: 0x20, count: n)
            return n
        }
    }

    /// A decimal integer, right-aligned in `width` columns.
    public mutating func integer(_ value: Int, width: Int = 0) {
        withSpace(max(width, 20)) { out in Self.format(value, width: width, into: out) }
    }

    /// Writes `value` right-aligned in `width` columns at `out`; returns the bytes written.
    static func format(_ value: Int, width: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = Self.width(of: value)
        let pad = max(0, width - digits)
        out.update(repeating: 0x20, count: pad)
        var magnitude = value.magnitude
        var i = pad + digits - 1
        repeat {
            out[i] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
            magnitude /= 10
            i -= 1
        } while magnitude > 0
        if value < 0 { out[pad] = 0x2D }
        return pad + digits
    }

    /// Number of decimal digits (and sign) of `value`.
    public static func width(of value: Int) -> Int {
        let m = value.magnitude
        var n = 1
        var limit: UInt = 10
        while n < 20 && m >= limit {
            n += 1
            let (next, overflow) = limit.multipliedReportingOverflow(by: 10)
            if overflow { break }
            limit = next
        }
        return value < 0 ? n + 1 : n
    }

    mutating func flushIfFull() {
        if sink != nil && count >= Self.chunk { flush() }
    }

    /// Writes out what is buffered (with a sink only).
    public mutating func flush() {
        guard let sink, count > 0 else { return }
        if !failed {
            failed = !storage.withUnsafeBufferPointer { sink(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
        count = 0
    }
}
