import PopsimSystem

/// A file's bytes for as long as this lives: a large regular file mapped (no copy, no fresh
/// memory: a 42 MB scenario read into an array cost a quarter of a run's time on a VM whose
/// fresh pages are slow), anything else read into memory.
///
/// Contract: a mapped file must not change while popsim reads it (as for `grep` or `git`); one
/// cut shorter meanwhile ends popsim with exit 2 and a one-line error (`main.swift`'s SIGBUS
/// handler), never with a crash report.
///
/// `@unchecked Sendable`, audited: every property is a `let` and the bytes are only read; the
/// mapping's pointer (what the checker cannot see through) stays valid until the last reference
/// goes, and `withBytes` lends it only for the call.
public final class FileContents: @unchecked Sendable {
    /// Files at least this large are mapped; smaller ones cost less to read.
    static let mapThreshold = 1 << 20

    private let mapping: UnsafeRawBufferPointer?
    private let array: [UInt8]

    init(mapping: UnsafeRawBufferPointer) {
        self.mapping = mapping
        array = []
    }

    init(_ array: [UInt8]) {
        mapping = nil
        self.array = array
    }

    deinit {
        if let mapping { System.unmapFile(mapping) }
    }

    public var count: Int { mapping?.count ?? array.count }

    /// Calls `body` with the bytes, valid only inside it.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let mapping else { return array.withUnsafeBufferPointer(body) }
        return body(mapping.assumingMemoryBound(to: UInt8.self))
    }

    /// A copy of the bytes, for the callers that keep them.
    public var copy: [UInt8] { withBytes { Array($0) } }
}
