#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer that renderers format straight into: bytes, not Strings.
///
/// Contract: with a file descriptor it flushes every 64 KiB and on `flush()`; in memory it keeps
/// everything (`text`). A failed write is remembered (`failed`) and later writes are dropped, so a
/// closed pipe never crashes popsim.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private let fd: Int32?
    public private(set) var failed = false
    static let chunk = 1 << 16

    /// Collects in memory.
    public init() {
        fd = nil
        bytes.reserveCapacity(1024)
    }

    /// Writes to a file descriptor.
    public init(fd: Int32) {
        self.fd = fd
        bytes.reserveCapacity(Self.chunk + 1024)
    }

    /// What was written, when collecting in memory.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        flushIfFull()
    }

    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        flushIfFull()
    }

    public mutating func write(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
        flushIfFull()
    }

    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    public mutating func spaces(_ n: Int) {
        var n = n
        while n > 0 {
            bytes.append(0x20)
            n -= 1
        }
    }

    /// A decimal integer, right-aligned in `width` columns.
    public mutating func integer(_ value: Int, width: Int = 0) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        let negative = value < 0
        var magnitude = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            spaces(width - count - (negative ? 1 : 0))
            if negative { bytes.append(0x2D) }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Number of decimal digits (and sign) of `value`.
    public static func width(of value: Int) -> Int {
        var n = value < 0 ? 2 : 1
        var m = value.magnitude
        while m >= 10 { m /= 10; n += 1 }
        return n
    }

    mutating func flushIfFull() {
        if fd != nil && bytes.count >= Self.chunk { flush() }
    }

    /// Writes out what is buffered (file descriptor only).
    public mutating func flush() {
        guard let fd, !bytes.isEmpty else { return }
        if !failed {
            failed = !FileIO.writeAll(bytes, to: fd)
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
